/**
 * The media upload protocol on the wire (wire contract 5): ask -> PUT -> report -> read ->
 * bytes; the same bytes asked again need no upload; an upload whose checksum, length, type or
 * signature is wrong is refused and nothing is kept; the keys guard the API steps; faults make
 * any step fail; the read-back counts every ask, upload and report by media id; an ask for a
 * medium many observations use costs what the first one did (links in their own table).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startObsServer, type ObsServer } from '../src/index.js';
import { loadSqlite } from '../src/stores/sqlite/load.js';
import { basic } from './helpers.js';

let server: ObsServer;
let auth: string;
beforeAll(async () => {
  server = await startObsServer({ quiet: true });
  auth = basic(server.publicKey, server.secretKey);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const TRACE = 'ab'.repeat(16);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');

function ask(bytes: Buffer, contentType: string, extra: Record<string, unknown> = {}, authorization = auth) {
  const body = {
    traceId: TRACE,
    observationId: 'cd'.repeat(8),
    contentType,
    contentLength: bytes.length,
    sha256Hash: sha256(bytes),
    field: 'input',
    ...extra,
  };
  return fetch(`${server.url}/api/public/media`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function askOk(bytes: Buffer, contentType: string): Promise<{ mediaId: string; uploadUrl: string | null }> {
  const res = await ask(bytes, contentType);
  expect(res.status).toBe(200);
  return (await res.json()) as { mediaId: string; uploadUrl: string | null };
}

function put(url: string, bytes: Buffer, contentType: string, checksum = sha256(bytes)) {
  return fetch(url, {
    method: 'PUT',
    headers: { 'content-type': contentType, 'x-amz-checksum-sha256': checksum },
    body: new Uint8Array(bytes),
  });
}

function report(mediaId: string, body: unknown, authorization = auth) {
  return fetch(`${server.url}/api/public/media/${mediaId}`, {
    method: 'PATCH',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const read = (mediaId: string, authorization = auth) => fetch(`${server.url}/api/public/media/${mediaId}`, { headers: { authorization } });

describe('media upload protocol', () => {
  it('ask -> PUT -> report -> read -> the same bytes with their type; the same bytes asked again need no upload', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
    const { mediaId, uploadUrl } = await askOk(png, 'image/png');
    expect(mediaId).toMatch(/^[\w-]{16,}$/);
    expect(uploadUrl).toMatch(new RegExp(`^${server.url}/media/${mediaId}\\?expires=\\d+&signature=[\\w-]+$`));

    const uploaded = await put(uploadUrl!, png, 'image/png');
    expect(uploaded.status).toBe(200);
    expect(uploaded.headers.get('x-amz-checksum-sha256')).toBe(sha256(png));
    const reported = await report(mediaId, { uploadedAt: new Date().toISOString(), uploadHttpStatus: 200, uploadTimeMs: 12 });
    expect(reported.status).toBe(204);

    const record = (await (await read(mediaId)).json()) as Record<string, unknown>;
    expect(record).toMatchObject({ mediaId, contentType: 'image/png', contentLength: png.length });
    expect(Date.parse(record['urlExpiry'] as string)).toBeGreaterThan(Date.now() + 30 * 60_000);
    const download = await fetch(record['url'] as string); // no keys: the URL carries its own signature
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);

    const again = await askOk(png, 'image/png');
    expect(again).toEqual({ mediaId, uploadUrl: null });
    const otherType = await askOk(png, 'application/octet-stream');
    expect(otherType.mediaId).not.toBe(mediaId);
    expect(otherType.uploadUrl).not.toBeNull();

    expect(server.media.counts(mediaId)).toEqual({ asks: 2, uploads: 1, reports: 1 });
    expect(server.media.bytes(mediaId)?.equals(png)).toBe(true);
    expect(server.media.get(mediaId)).toMatchObject({
      sha256Hash: sha256(png),
      report: { uploadHttpStatus: 200, uploadHttpError: null, uploadTimeMs: 12 },
      links: [{ traceId: TRACE, observationId: 'cd'.repeat(8), field: 'input' }],
    });
    expect(server.media.asks.map((a) => [a.mediaId, a.uploadUrl === null])).toEqual([
      [mediaId, false],
      [mediaId, true],
      [otherType.mediaId, false],
    ]);
  });

  it('refuses an upload whose checksum, body, length, type or signature is wrong, and keeps nothing', async () => {
    const bytes = Buffer.from('the real bytes');
    const { mediaId, uploadUrl } = await askOk(bytes, 'text/plain');
    const forged = Buffer.from('the fake bytes'); // same length
    const answers = [
      await put(uploadUrl!, bytes, 'text/plain', sha256(forged)), // checksum is not the declared hash
      await put(uploadUrl!, forged, 'text/plain', sha256(bytes)), // body does not hash to it
      await put(uploadUrl!, Buffer.from('short'), 'text/plain', sha256(bytes)),
      await put(uploadUrl!, bytes, 'image/png'),
      await put(uploadUrl!.replace(/signature=[\w-]+/, 'signature=AAAA'), bytes, 'text/plain'),
      await put(
        uploadUrl!.replace(/expires=\d+/, (e) => `expires=${Number(e.slice(8)) + 1}`),
        bytes,
        'text/plain',
      ),
      await put(uploadUrl!.replace(mediaId, 'other-id'), bytes, 'text/plain'),
    ];
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 403, 403, 403]);
    const messages = await Promise.all(answers.map(async (a) => ((await a.json()) as { message: string }).message));
    expect(messages[1]).toMatch(/^BadDigest/);
    expect(server.media.bytes(mediaId)).toBeUndefined();
    expect((await read(mediaId)).status).toBe(404); // nothing to read yet
    expect((await askOk(bytes, 'text/plain')).uploadUrl).not.toBeNull(); // not held: ask again, upload again
    expect((await put(uploadUrl!, bytes, 'text/plain')).status).toBe(200);
    expect(server.media.counts(mediaId)).toEqual({ asks: 2, uploads: 7, reports: 0 });
    expect(server.media.uploads.map((u) => [u.mediaId === mediaId, u.request.status])).toEqual([
      ...[400, 400, 400, 400, 403, 403].map((status) => [true, status]),
      [false, 403],
      [true, 200],
    ]);
  });

  it('checks the ask and the report, and the keys on the ask, report and read (the upload and download URLs need none)', async () => {
    const bytes = Buffer.from('x');
    const statuses = async (...responses: Promise<Response>[]) => (await Promise.all(responses)).map((r) => r.status);
    expect(
      await statuses(
        ask(bytes, 'text/plain', { traceId: '' }),
        ask(bytes, 'not a type'),
        ask(bytes, 'text/plain', { field: 'other' }),
        ask(bytes, 'text/plain', { sha256Hash: 'abc' }),
        ask(bytes, 'text/plain', { contentLength: -1 }),
        ask(bytes, 'text/plain', { contentLength: 50 * 1024 * 1024 + 1 }),
        ask(bytes, 'text/plain', { contentLength: 2 }), // wrong length is caught on upload
        ask(bytes, 'text/plain', {}, basic(server.publicKey, '')),
        ask(bytes, 'text/plain', {}, basic(server.publicKey, 'wrong')),
      ),
    ).toEqual([400, 400, 400, 400, 400, 400, 200, 401, 401]);
    const { mediaId } = await askOk(Buffer.from('y'), 'text/plain');
    expect(
      await statuses(
        report(mediaId, { uploadHttpStatus: 200 }),
        report(mediaId, { uploadedAt: 'yesterday', uploadHttpStatus: 200 }),
        report(mediaId, { uploadedAt: new Date().toISOString(), uploadHttpStatus: '200' }),
        report('no-such-media', { uploadedAt: new Date().toISOString(), uploadHttpStatus: 200 }),
        report(
          mediaId,
          { uploadedAt: new Date().toISOString(), uploadHttpStatus: 500, uploadHttpError: 'boom' },
          basic(server.publicKey, ''),
        ),
        report(mediaId, { uploadedAt: new Date().toISOString(), uploadHttpStatus: 500, uploadHttpError: 'boom' }),
        read(mediaId, basic(server.publicKey, 'wrong')),
        read('no-such-media'),
      ),
    ).toEqual([400, 400, 400, 404, 401, 204, 401, 404]);
    expect(server.media.get(mediaId)?.report).toMatchObject({ uploadHttpStatus: 500, uploadHttpError: 'boom' });
  });

  it('takes media up to 50 MiB', async () => {
    const big = Buffer.alloc(50 * 1024 * 1024, 7);
    const { mediaId, uploadUrl } = await askOk(big, 'application/octet-stream');
    expect((await put(uploadUrl!, big, 'application/octet-stream')).status).toBe(200);
    expect(server.media.bytes(mediaId)?.length).toBe(big.length);
  });

  it('faults make an ask, an upload, a report or a read fail, through the fault queue; a media id narrows them', async () => {
    const a = Buffer.from('first');
    const b = Buffer.from('second');
    server.media.injectFault('ask', { status: 500 });
    expect((await ask(a, 'text/plain')).status).toBe(500);
    const first = await askOk(a, 'text/plain');
    const second = await askOk(b, 'text/plain');

    server.media.injectFault('upload', { status: 503, mediaId: first.mediaId });
    expect((await put(second.uploadUrl!, b, 'text/plain')).status).toBe(200); // another id: not faulted
    expect((await put(first.uploadUrl!, a, 'text/plain')).status).toBe(503);
    expect(server.media.bytes(first.mediaId)).toBeUndefined();
    expect((await put(first.uploadUrl!, a, 'text/plain')).status).toBe(200);

    server.media.injectFault('report', { status: 502 });
    expect((await report(first.mediaId, { uploadedAt: new Date().toISOString(), uploadHttpStatus: 200 })).status).toBe(502);
    expect(server.media.get(first.mediaId)?.report).toBeNull();
    server.media.injectFault('read', { status: 504 });
    expect((await read(first.mediaId)).status).toBe(504);
    const record = (await (await read(first.mediaId)).json()) as { url: string };
    server.media.injectFault('download', { reset: true });
    await expect(fetch(record.url)).rejects.toThrow();
    expect((await fetch(record.url)).status).toBe(200);

    expect(server.media.asks.map((x) => x.request.status)).toEqual([500, 200, 200]);
    expect(server.media.asks[0]!.mediaId).toBeUndefined();
    expect(server.media.counts(first.mediaId)).toEqual({ asks: 1, uploads: 2, reports: 1 });
    expect(server.media.counts(second.mediaId)).toEqual({ asks: 1, uploads: 1, reports: 0 });
    expect(server.media.uploads.map((u) => [u.mediaId === first.mediaId ? 'first' : 'second', u.request.status])).toEqual([
      ['second', 200],
      ['first', 503],
      ['first', 200],
    ]);
  });

  it('seed holds media for the reads; an id with reserved characters is encoded in the URLs and in faults aimed at it', async () => {
    const id = server.media.seed({ mediaId: 'a b/c?d', bytes: Buffer.from('hello'), contentType: 'text/plain' });
    expect(id).toBe('a b/c?d');
    const record = (await (await read(encodeURIComponent(id))).json()) as Record<string, unknown>;
    expect(record).toMatchObject({ mediaId: id, contentType: 'text/plain', contentLength: 5 });
    expect(record['url']).toContain(`/media/${encodeURIComponent(id)}?`);
    expect(await (await fetch(record['url'] as string)).text()).toBe('hello');
    server.media.injectFault('download', { status: 500, mediaId: id });
    expect((await fetch(record['url'] as string)).status).toBe(500);
    const generated = server.media.seed({ bytes: Buffer.from('x'), contentType: 'text/plain' });
    expect(server.media.bytes(generated)).toEqual(Buffer.from('x'));
    expect(server.media.get(generated)?.sha256Hash).toBe(sha256(Buffer.from('x')));
  });

  it('reset forgets media, asks, uploads and reports', async () => {
    const { mediaId, uploadUrl } = await askOk(Buffer.from('z'), 'text/plain');
    await put(uploadUrl!, Buffer.from('z'), 'text/plain');
    server.reset();
    expect([server.media.asks.length, server.media.uploads.length, server.media.bytes(mediaId), server.media.get(mediaId)]).toEqual([
      0,
      0,
      undefined,
      undefined,
    ]);
  });
});

describe('media asked for by many observations', () => {
  it('an ask costs the same for a medium a thousand observations use: one link row each, the record never rewritten bigger', async () => {
    const data = mkdtempSync(path.join(tmpdir(), 'obs-media-links-'));
    const kept = await startObsServer({ quiet: true, data, record: false });
    try {
      const bytes = Buffer.from('the same picture, asked for by every observation');
      const times: number[] = [];
      const asks = 1000;
      for (let i = 0; i < asks; i++) {
        const started = performance.now();
        const res = await fetch(`${kept.url}/api/public/media`, {
          method: 'POST',
          headers: { authorization: basic(kept.publicKey, kept.secretKey), 'content-type': 'application/json' },
          body: JSON.stringify({
            traceId: TRACE,
            observationId: i.toString(16).padStart(16, '0'),
            contentType: 'image/png',
            contentLength: bytes.length,
            sha256Hash: sha256(bytes),
            field: 'input',
          }),
        });
        expect(res.status).toBe(200);
        times.push(performance.now() - started);
      }
      const median = (list: number[]) => list.slice().sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
      // The same run's first asks are the yardstick: the last ones are no slower (the record is not rewritten whole).
      expect(median(times.slice(-200)) / median(times.slice(0, 200))).toBeLessThan(3);
      const sqlite = loadSqlite();
      if (sqlite instanceof Error) throw sqlite;
      const db = new sqlite.DatabaseSync(kept.dataFile!, { readOnly: true });
      const rows = db.prepare('SELECT length(data) AS size FROM media').all() as Array<{ size: number }>;
      const links = db.prepare('SELECT count(*) AS n FROM media_links').get() as { n: number };
      db.close();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.size).toBeLessThan(400); // the record alone, not a list of a thousand links
      expect(links.n).toBe(asks);
    } finally {
      await kept.close();
      rmSync(data, { recursive: true, force: true });
    }
  });
});
