/**
 * A server with a data directory keeps everything across a restart (spans, scores, datasets with
 * their versions, prompts with labels, media with working URLs, experiments), read back through
 * the viewer's API and the public API; the published CLI does so without a warning; a corrupted,
 * truncated, foreign or newer file gives one line, is kept aside, and the server starts empty;
 * a file of schema version 1 is migrated and its traces are listed and found.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startObsServer, type ObsServer } from '../src/index.js';
import { encodeSpan } from '../src/stores/sqlite/codec.js';
import { DATABASE_FILE, openDatabase } from '../src/stores/sqlite/database.js';
import { loadSqlite, type Sqlite } from '../src/stores/sqlite/load.js';
import { basic, experimentSpans, makeSpans, toProtobuf } from './helpers.js';
import { CLI_BUILT, otlpJson, runCliToEnd, startCli } from './cli-process.js';
import { span } from './store-contract.js';

const root = mkdtempSync(path.join(tmpdir(), 'obs-persist-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => path.join(root, `d${++dirs}`);

function sqlite(): Sqlite {
  const loaded = loadSqlite();
  if (loaded instanceof Error) throw loaded;
  return loaded;
}

/** Calls the server's API with its keys. */
async function call(server: ObsServer, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${route}`, {
    method,
    headers: {
      authorization: basic(server.publicKey, server.secretKey),
      ...headers,
      ...(body !== undefined && !(body instanceof Uint8Array) && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: body instanceof Uint8Array ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: the tests read the answers' fields directly
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

describe('a server with a data directory', () => {
  it('keeps spans, scores, datasets, prompts, media and experiments across a restart, counted through both APIs', async () => {
    const data = freshDir();
    let server = await startObsServer({ data, quiet: true });
    expect(server.dataFile).toBe(path.join(data, DATABASE_FILE));
    const otlp = { 'content-type': 'application/x-protobuf' };
    expect((await call(server, 'POST', '/api/public/otel/v1/traces', new Uint8Array(toProtobuf(makeSpans())), otlp)).status).toBe(200);
    expect((await call(server, 'POST', '/api/public/otel/v1/traces', new Uint8Array(toProtobuf(experimentSpans())), otlp)).status).toBe(
      200,
    );
    const traceId = server.spansByName('POST /chat')[0]!.traceId;
    const scores = [
      { id: 'sc-1', traceId, name: 'helpful', value: 1 },
      { id: 'sc-2', traceId, name: 'tone', value: 'kind' },
    ];
    expect((await call(server, 'POST', '/api/public/scores', scores)).status).toBe(200);
    await call(server, 'POST', '/api/public/v2/datasets', { name: 'capitals', description: 'countries' });
    await call(server, 'POST', '/api/public/dataset-items', {
      datasetName: 'capitals',
      id: 'fr',
      input: 'France',
      expectedOutput: 'Paris',
    });
    await call(server, 'POST', '/api/public/dataset-items', { datasetName: 'capitals', id: 'jp', input: 'Japan', expectedOutput: 'Tokyo' });
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await call(server, 'POST', '/api/public/dataset-items', { datasetName: 'capitals', id: 'fr', expectedOutput: 'Paris, France' });
    await call(server, 'POST', '/api/public/v2/prompts', { name: 'greet', prompt: 'Hello {{name}}', labels: ['production'] });
    await call(server, 'POST', '/api/public/v2/prompts', { name: 'greet', prompt: 'Hi {{name}}!' });
    const bytes = Buffer.from('a picture, in bytes');
    const sha256Hash = createHash('sha256').update(bytes).digest('base64');
    const ask = await call(server, 'POST', '/api/public/media', {
      traceId,
      contentType: 'image/png',
      contentLength: bytes.length,
      sha256Hash,
      field: 'input',
    });
    const put = await fetch(ask.json.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'image/png', 'x-amz-checksum-sha256': sha256Hash },
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(200);
    const read = await call(server, 'GET', `/api/public/media/${ask.json.mediaId}`);
    await server.close();

    server = await startObsServer({ data, quiet: true });
    try {
      // The viewer's API: the list, one trace with its observations and scores.
      const list = await call(server, 'GET', '/viewer-api/traces');
      expect(list.json.total).toBe(5); // the chat trace, three experiment items, one unrelated span
      const trace = await call(server, 'GET', `/viewer-api/traces/${traceId}`);
      expect(trace.json.summary).toMatchObject({ id: traceId, name: 'chat', observations: 3, userId: 'user-1', sessionId: 'sess-1' });
      expect(trace.json.observations.map((o: { name: string }) => o.name).sort()).toEqual(['POST /chat', 'llm-call', 'search']);
      expect(trace.json.scores.map((s: { id: string }) => s.id)).toEqual(['sc-1', 'sc-2']);
      expect((await call(server, 'GET', '/viewer-api/traces?q=hello')).json.data.map((t: { id: string }) => t.id)).toEqual([traceId]);
      // The public API.
      expect((await call(server, 'GET', `/api/public/v2/observations?traceId=${traceId}`)).json.data).toHaveLength(3);
      expect((await call(server, 'GET', '/api/public/v3/scores')).json.data.map((s: { id: string }) => s.id)).toEqual(['sc-1', 'sc-2']);
      expect((await call(server, 'GET', '/api/public/v2/datasets/capitals')).json.description).toBe('countries');
      const items = (await call(server, 'GET', '/api/public/dataset-items?datasetName=capitals')).json.data;
      expect(items.map((i: { id: string; expectedOutput: string }) => [i.id, i.expectedOutput])).toEqual([
        ['fr', 'Paris, France'],
        ['jp', 'Tokyo'],
      ]);
      const then = (await call(server, 'GET', `/api/public/dataset-items?datasetName=capitals&version=${before}`)).json.data;
      expect(then.map((i: { expectedOutput: string }) => i.expectedOutput)).toEqual(['Paris', 'Tokyo']);
      expect((await call(server, 'GET', '/api/public/v2/prompts/greet')).json).toMatchObject({ version: 1, prompt: 'Hello {{name}}' });
      expect((await call(server, 'GET', '/api/public/v2/prompts/greet?label=latest')).json).toMatchObject({ version: 2 });
      const experiments = (await call(server, 'GET', '/api/public/experiments')).json.data;
      expect(experiments.map((e: { id: string; itemCount: number }) => [e.id, e.itemCount])).toEqual([
        ['exp-1', 2],
        ['exp-2', 1],
      ]);
      expect((await call(server, 'GET', `/api/public/media/${ask.json.mediaId}`)).json).toMatchObject({
        contentType: 'image/png',
        contentLength: bytes.length,
      });
      // The URL answered before the restart still serves the bytes: the signing key is kept with the data.
      const download = await fetch(new URL(new URL(read.json.url).pathname + new URL(read.json.url).search, server.url));
      expect([download.status, Buffer.from(await download.arrayBuffer())]).toEqual([200, bytes]);
      // The test API reads the same store.
      expect([server.spans().length, server.traceIds().length, server.scores.length]).toEqual([7, 5, 2]);
    } finally {
      await server.close();
    }
  });

  it('is migrated from schema version 1: its traces are summarised and found by search', async () => {
    const data = freshDir();
    const { db } = openDatabase(sqlite(), data, () => {}, 1);
    const insert = db.prepare('INSERT INTO spans (trace_id, name, prompt_name, experiment, data) VALUES (?, ?, ?, ?, ?)');
    const T = 'a'.repeat(32);
    const spans = [
      span(T, 'r1', {
        name: 'old request',
        start: 1000,
        end: 1100,
        attributes: { 'user.id': 'u-old', 'obs.observation.input': 'Where is order 7?' },
      }),
      span(T, 'c1', { parent: 'r1', name: 'old model', start: 1010, end: 1090, attributes: { 'obs.trace.tags': ['legacy'] } }),
    ];
    for (const s of spans) insert.run(s.traceId, s.name, null, 0, encodeSpan(s));
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 1 });
    db.close();

    const server = await startObsServer({ data, quiet: true });
    try {
      const list = await call(server, 'GET', '/viewer-api/traces');
      expect(list.json).toMatchObject({
        total: 1,
        data: [{ id: T, name: 'old request', userId: 'u-old', tags: ['legacy'], observations: 2, start: 1000, end: 1100 }],
      });
      expect((await call(server, 'GET', '/viewer-api/traces?q=order+7')).json.total).toBe(1);
      expect((await call(server, 'GET', '/viewer-api/traces?tag=legacy')).json.total).toBe(1);
    } finally {
      await server.close();
    }
    const { db: after } = openDatabase(sqlite(), data, () => {});
    expect(after.prepare('PRAGMA user_version').get()).toEqual({ user_version: 3 });
    after.close();
  });
});

const auth = basic('pk-obs-local', 'sk-obs-local');
async function sendTrace(url: string) {
  const res = await fetch(`${url}/api/public/otel/v1/traces`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/x-protobuf' },
    body: new Uint8Array(toProtobuf(makeSpans())),
  });
  expect(res.status).toBe(200);
}
async function traceCount(url: string): Promise<number> {
  return ((await (await fetch(`${url}/viewer-api/traces`)).json()) as { total: number }).total;
}

describe.skipIf(!CLI_BUILT)('the published CLI with a data directory', () => {
  it('says where it keeps data, prints no warning, and reads its traces back after a restart', async () => {
    const data = freshDir();
    let cli = await startCli(['--data', data]);
    expect(cli.output().stdout).toContain(
      `Data: ${path.join(data, DATABASE_FILE)} (kept across restarts; the oldest traces go past 1024 MB; --memory keeps nothing)`,
    );
    await sendTrace(cli.url);
    await sendTrace(cli.url);
    expect(await cli.stop()).toBe(0);
    cli = await startCli(['--data', data]);
    expect(await traceCount(cli.url)).toBe(2);
    await cli.stop();
    expect(cli.output().stderr).toBe(''); // no ExperimentalWarning, nothing else
  });

  const unusable: Array<[string, string, (file: string) => void]> = [
    ['corrupted', 'corrupt', (file) => writeFileSync(file, Buffer.alloc(8192, 0x5a))],
    [
      'truncated',
      'corrupt',
      (file) => {
        const { db } = openDatabase(sqlite(), path.dirname(file), () => {});
        db.exec('PRAGMA journal_mode = DELETE');
        db.close();
        truncateSync(file, 1024);
      },
    ],
    [
      'foreign',
      'foreign',
      (file) => {
        const db = new (sqlite().DatabaseSync)(file);
        db.exec("CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('ada')");
        db.close();
      },
    ],
    [
      'newer',
      'newer',
      (file) => {
        const { db } = openDatabase(sqlite(), path.dirname(file), () => {});
        db.exec('PRAGMA journal_mode = DELETE; PRAGMA user_version = 99');
        db.close();
      },
    ],
  ];
  it.each(unusable)('a %s file: one line, the file kept aside unchanged, a fresh start', async (_name, kind, make) => {
    const data = freshDir();
    mkdirSync(data, { recursive: true });
    const file = path.join(data, DATABASE_FILE);
    make(file);
    const original = readFileSync(file);
    const cli = await startCli(['--data', data]);
    await sendTrace(cli.url);
    expect(await traceCount(cli.url)).toBe(1);
    await cli.stop();
    const lines = cli.output().stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const aside = readdirSync(data).filter((f) => f.startsWith(`${DATABASE_FILE}.${kind}-`) && !/-(wal|shm|journal)$/.test(f));
    expect(aside).toHaveLength(1);
    expect(lines[0]).toBe(
      `[obs-local-server] ${file} ${lines[0]!.slice(`[obs-local-server] ${file} `.length).split(': moved it to ')[0]}: moved it to ${path.join(data, aside[0]!)} and started with an empty database`,
    );
    expect(readFileSync(path.join(data, aside[0]!))).toEqual(original);
  });
});

/** Writes `blocks` blocks of random bytes, `size` each, spread over the middle of a file. */
function noise(file: string, blocks = 3, size = 16 * 1024): void {
  const length = statSync(file).size;
  const fd = openSync(file, 'r+');
  try {
    for (let i = 1; i <= blocks; i++) writeSync(fd, randomBytes(size), 0, size, Math.floor((length * i) / (blocks + 1)));
  } finally {
    closeSync(fd);
  }
}

const ingest = (url: string, body: string) =>
  fetch(`${url}/api/public/otel/v1/traces`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body });

describe.skipIf(!CLI_BUILT)('a database damaged in its middle', () => {
  it('at start: quick_check finds three 16 KiB blocks of noise in a 5,000-span file; one line, the file aside, every request answered', async () => {
    const data = freshDir();
    const server = await startObsServer({ data, quiet: true });
    for (let i = 0; i < 5000; i += 1000) expect((await ingest(server.url, otlpJson(i, 1000, 100))).status).toBe(200);
    await server.close();
    const file = path.join(data, DATABASE_FILE);
    noise(file);
    const damaged = readFileSync(file);

    const cli = await startCli(['--data', data]);
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await ingest(cli.url, otlpJson(10_000 + i * 10, 10))).status);
      expect(statuses).toEqual([200, 200, 200, 200]);
      const search = await fetch(`${cli.url}/viewer-api/traces?q=lorem`);
      expect([search.status, ((await search.json()) as { total: number }).total]).toEqual([200, 40]);
    } finally {
      await cli.stop();
    }
    const lines = cli.output().stderr.trim().split('\n');
    expect(lines, cli.output().stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      /obs-local\.sqlite is not a readable database \(quick_check: .+\): moved it to .+\.corrupt-.+ and started with an empty database$/,
    );
    const aside = readdirSync(data).filter((f) => f.startsWith(`${DATABASE_FILE}.corrupt-`) && !/-(wal|shm)$/.test(f));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(data, aside[0]!))).toEqual(damaged);
  });

  it('while it runs: the request that meets SQLITE_CORRUPT moves the file aside with one line and is stored in a fresh one; later ones too', async () => {
    const data = freshDir();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const server = await startObsServer({ data, quiet: true });
    try {
      for (let i = 0; i < 3000; i += 1000) expect((await ingest(server.url, otlpJson(i, 1000, 100))).status).toBe(200);
      const file = path.join(data, DATABASE_FILE);
      // Another connection moves everything into the file, then the disk "damages" it; a write of
      // that connection makes the server's connection drop its page cache at its next read.
      const other = new (sqlite().DatabaseSync)(file);
      other.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      noise(file, 6);
      other.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('touched', x'01')");
      other.close();

      const statuses = [];
      statuses.push((await fetch(`${server.url}/viewer-api/traces?q=lorem`)).status);
      statuses.push(server.spans().length >= 0 ? 200 : 0);
      for (let i = 0; i < 4; i++) statuses.push((await ingest(server.url, otlpJson(20_000 + i * 10, 10))).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      expect(server.traceIds()).toHaveLength(40); // the fresh file holds what came after the damage
      const lines = warn.mock.calls.map((c) => String(c[0]));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^\[obs-local-server\] .+obs-local\.sqlite is not a readable database \(.+\): moved it to .+\.corrupt-.+ and started with an empty database$/,
      );
      expect(readdirSync(data).filter((f) => f.startsWith(`${DATABASE_FILE}.corrupt-`) && !/-(wal|shm)$/.test(f))).toHaveLength(1);
    } finally {
      warn.mockRestore();
      await server.close();
    }
  });
});

describe.skipIf(!CLI_BUILT)('a --data the server cannot use', () => {
  it('names the directory and the cause in one line, without the usage text, and exits 1', async () => {
    const file = path.join(root, 'a-file');
    writeFileSync(file, 'not a directory');
    const { code, stdout, stderr } = await runCliToEnd(['--data', file]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`obs-local-server: cannot keep data in ${file}: it is a file, not a directory\n`);
    const inside = await runCliToEnd(['--data', path.join(file, 'sub')]);
    expect(inside.stderr).toBe(`obs-local-server: cannot keep data in ${path.join(file, 'sub')}: it is a file, not a directory\n`);
  });

  it('says the usage text for a mistake in the command line', async () => {
    const { code, stderr } = await runCliToEnd(['--retain', 'soon']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^obs-local-server: --retain takes a positive number of days, got "soon"\n\nUsage: obs-local-server/);
  });
});

describe('schema version 3', () => {
  it('moves the media links of a version-2 file into their own table', async () => {
    const data = freshDir();
    const { db } = openDatabase(sqlite(), data, () => {}, 2);
    const T = 'f'.repeat(32);
    const record = {
      mediaId: 'm1',
      contentType: 'image/png',
      contentLength: 3,
      sha256Hash: 'h',
      createdAt: 'c',
      uploadedAt: 'u',
      report: null,
    };
    const links = [
      { traceId: T, observationId: null, field: 'input' },
      { traceId: T, observationId: 'o1', field: 'output' },
    ];
    db.prepare('INSERT INTO media (media_id, sha256, content_type, data, bytes) VALUES (?, ?, ?, ?, ?)').run(
      'm1',
      'h',
      'image/png',
      JSON.stringify({ ...record, links }),
      Buffer.from([1, 2, 3]),
    );
    db.close();
    const server = await startObsServer({ data, quiet: true });
    try {
      const { createdAt: _createdAt, ...held } = record;
      expect(server.media.get('m1')).toEqual({ ...held, links });
      expect(server.media.bytes('m1')).toEqual(Buffer.from([1, 2, 3]));
    } finally {
      await server.close();
    }
  });
});
