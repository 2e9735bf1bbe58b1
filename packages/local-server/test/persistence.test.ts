/**
 * A server with a data directory keeps everything across a restart (spans, scores, datasets with
 * their versions, prompts with labels, media with working URLs, experiments), read back through
 * the viewer's API and the public API; the published CLI does so without a warning; a corrupted,
 * truncated, foreign or newer file gives one line, is kept aside, and the server starts empty;
 * a file of schema version 1 is migrated and its traces are listed and found.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startObsServer, type ObsServer } from '../src/index.js';
import { encodeSpan } from '../src/stores/sqlite/codec.js';
import { DATABASE_FILE, openDatabase } from '../src/stores/sqlite/database.js';
import { loadSqlite, type Sqlite } from '../src/stores/sqlite/load.js';
import { basic, experimentSpans, makeSpans, toProtobuf } from './helpers.js';
import { span } from './store-contract.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
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
    expect(after.prepare('PRAGMA user_version').get()).toEqual({ user_version: 2 });
    after.close();
  });
});

/** Runs the published CLI; resolves once it listens, with its output so far and a way to stop it. */
async function startCli(args: string[]) {
  const child = spawn(process.execPath, [CLI, '--port', '0', ...args], {
    env: { ...process.env, OBS_LOCAL_DATA: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`the CLI exited with ${code}: ${stderr}`)));
    const poll = setInterval(() => {
      const found = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (found) {
        clearInterval(poll);
        resolve(found);
      }
    }, 20);
  });
  return {
    url,
    output: () => ({ stdout, stderr }),
    stop: () =>
      new Promise<number | null>((resolve) => {
        child.removeAllListeners('exit');
        child.on('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

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

describe.skipIf(!existsSync(CLI))('the published CLI with a data directory', () => {
  it('says where it keeps data, prints no warning, and reads its traces back after a restart', async () => {
    const data = freshDir();
    let cli = await startCli(['--data', data]);
    expect(cli.output().stdout).toContain(`Data: ${path.join(data, DATABASE_FILE)} (kept across restarts; --memory keeps nothing)`);
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
