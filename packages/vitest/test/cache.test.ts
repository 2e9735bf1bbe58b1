/**
 * The recorder below `fetch`, in this process, with the real OpenAI SDK against a stand-in model
 * on a real port: what a cassette keeps (plain JSON from a gzipped answer, server-sent events as
 * text, no key, no cookie, no date), replay with the model down (0 requests, the same answers,
 * streams included), a call replay does not know (answered at once with its name, never retried),
 * `auto`, transient answers left out, obs's own requests and calls outside an item untouched; and
 * the same through the `fetch` of undici 7 (what Node.js 24 ships: the old handler protocol) and
 * undici 8 (the new protocol, its own global slot).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Cassette } from '../src/cache/cassette.js';
import { ensureDispatcherWrapped } from '../src/cache/dispatcher.js';
import { evalCacheMode } from '../src/cache/mode.js';
import { keyRequest } from '../src/cache/request-key.js';
import { type CacheScope, inCacheScope } from '../src/cache/scope.js';
import { startStandInModel, type StandInModel } from './support/stand-in-model.js';

const API_KEY = 'sk-test-never-in-a-cassette';
let dir: string;
let model: StandInModel;
/** Made before the dispatcher is wrapped: the SDK keeps the `fetch` it found. */
let openai: OpenAI;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'obs-eval-cache-'));
  model = await startStandInModel();
  openai = new OpenAI({ baseURL: model.baseURL, apiKey: API_KEY, maxRetries: 2 });
  ensureDispatcherWrapped();
});
afterAll(async () => {
  await model.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  model.gzip = false;
});

function scope(mode: CacheScope['mode'], file: string): CacheScope {
  return { mode, cassette: new Cassette(join(dir, file)), misses: [], counts: { replayed: 0, recorded: 0, missed: 0 } };
}

const ask = (country: string) =>
  openai.chat.completions
    .create({ model: 'stand-in-1', messages: [{ role: 'user', content: `Capital of ${country}?` }] })
    .then((r) => r.choices[0]!.message.content);

async function askStreaming(country: string): Promise<string> {
  const stream = await openai.chat.completions.create({
    model: 'stand-in-1',
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'user', content: `Capital of ${country}?` }],
  });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

describe('OBS_EVAL_CACHE record, then replay with the model down', () => {
  it('records JSON (un-gzipped) and a stream; replays both with 0 requests; stores no key, cookie or date', async () => {
    const file = 'record-replay.json';
    const record = scope('record', file);
    model.gzip = true;
    const recorded = await inCacheScope(record, async () => [await ask('France'), await ask('Peru'), await askStreaming('Japan')]);
    model.gzip = false;
    record.cassette.save();
    expect(recorded).toEqual(['Paris', 'Lima', 'Tokyo']);
    expect(record.counts).toEqual({ replayed: 0, recorded: 3, missed: 0 });
    const sent = model.requests.length;
    expect(sent).toBe(3);

    const text = readFileSync(join(dir, file), 'utf8');
    for (const secret of [API_KEY, 'session=stand-in', 'authorization', 'set-cookie', '"date"']) expect(text).not.toContain(secret);
    const entries = Object.values(JSON.parse(text).entries) as Array<{
      request: { body: unknown };
      responses: Array<Record<string, unknown>>;
    }>;
    expect(entries).toHaveLength(3);
    const json = entries.find((e) => JSON.stringify(e.request.body).includes('France'))!.responses[0]!;
    expect((json['json'] as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe('Paris');
    expect(json['headers']).not.toHaveProperty('content-encoding');
    const sse = entries.find((e) => JSON.stringify(e.request.body).includes('Japan'))!.responses[0]!;
    expect(sse['text']).toMatch(/^data: .*\n\ndata: .*\n\ndata: .*\n\ndata: \[DONE\]\n\n$/);

    // The model goes away; the same calls are answered from the file (a new process would read it).
    const replay = scope('replay', file);
    const url = model.baseURL;
    await model.close();
    const replayed = await inCacheScope(replay, async () => [await ask('France'), await ask('Peru'), await askStreaming('Japan')]);
    expect(replayed).toEqual(recorded);
    expect(replay.counts).toEqual({ replayed: 3, recorded: 0, missed: 0 });
    expect(replay.misses).toEqual([]);
    expect(model.requests.length).toBe(sent);
    // Back up on the same port, for the tests below.
    model = await startStandInModel(Number(new URL(url).port));
  });

  it('a call replay has no answer for fails at once, named, and is not retried', async () => {
    const replay = scope('replay', 'empty.json');
    const before = model.requests.length;
    const started = performance.now();
    const error = await inCacheScope(replay, () => ask('Kenya')).catch((e: unknown) => e);
    const ms = performance.now() - started;
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(404);
    expect(String((error as Error).message)).toContain('OBS_EVAL_CACHE=replay: no recorded answer for POST');
    expect(replay.misses).toHaveLength(1);
    expect(replay.misses[0]).toMatch(
      /^OBS_EVAL_CACHE=replay: no recorded answer for POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(body [0-9a-f]{12}\) in .*empty\.json/,
    );
    expect(model.requests.length).toBe(before);
    // The SDK's retries (2 here) would wait 0.5 s and more: none happened.
    expect(ms).toBeLessThan(400);
  });

  it('record keeps each answer of a call made twice, replay gives them in order; auto replays hits and records misses', async () => {
    const file = 'auto.json';
    const record = scope('record', file);
    await inCacheScope(record, async () => {
      await ask('Chile');
      await ask('Chile');
    });
    record.cassette.save();
    expect(record.counts).toEqual({ replayed: 0, recorded: 2, missed: 0 });
    const saved = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      entries: Record<string, { responses: Array<{ headers: Record<string, string> }> }>;
    };
    const responses = Object.values(saved.entries).map((e) => e.responses.map((r) => r.headers['x-request-id']));
    expect(responses).toHaveLength(1);
    expect(responses[0]).toHaveLength(2);
    const requestId = () =>
      openai.chat.completions
        .create({ model: 'stand-in-1', messages: [{ role: 'user', content: 'Capital of Chile?' }] })
        .withResponse()
        .then((r) => r.response.headers.get('x-request-id'));
    const replay = scope('replay', file);
    const ids = await inCacheScope(replay, async () => [await requestId(), await requestId(), await requestId()]);
    expect(ids).toEqual([responses[0]![0], responses[0]![1], responses[0]![1]]);

    const before = model.requests.length;
    const auto = scope('auto', file);
    const answers = await inCacheScope(auto, async () => [
      await ask('Chile'),
      await ask('Chile'),
      await ask('Chile'),
      await ask('Egypt'),
      await ask('Egypt'),
    ]);
    expect(answers).toEqual(['Santiago', 'Santiago', 'Santiago', 'Cairo', 'Cairo']);
    // Egypt went out once; its second ask found the first's answer.
    expect(auto.counts).toEqual({ replayed: 4, recorded: 1, missed: 0 });
    expect(model.requests.length - before).toBe(1);
  });

  it('a transient answer (5xx, 429) is passed on but not recorded', async () => {
    const failing = new OpenAI({ baseURL: `${model.baseURL}/broken`, apiKey: API_KEY, maxRetries: 0 });
    const record = scope('record', 'transient.json');
    // The stand-in answers 404 off its route: a lasting answer, recorded.
    await inCacheScope(record, () => failing.models.list()).catch(() => undefined);
    expect(record.counts.recorded).toBe(1);
    const down = await startErrorServer(503);
    const unavailable = new OpenAI({ baseURL: down.url, apiKey: API_KEY, maxRetries: 0 });
    await expect(inCacheScope(record, () => unavailable.models.list())).rejects.toMatchObject({ status: 503 });
    expect(record.counts.recorded).toBe(1);
    await down.close();
  });

  it('calls outside an item, and obs’s own requests inside one, go out untouched', async () => {
    const before = model.requests.length;
    await ask('Norway'); // no scope: the network
    expect(model.requests.length).toBe(before + 1);
    // obs's base URL (OBS_BASE_URL) is never recorded or replayed, even inside an item.
    const previous = { ...process.env };
    Object.assign(process.env, { OBS_BASE_URL: new URL(model.baseURL).origin, OBS_PUBLIC_KEY: 'pk', OBS_SECRET_KEY: 'sk' });
    try {
      const replay = scope('replay', 'obs-traffic.json');
      expect(await inCacheScope(replay, () => ask('Norway'))).toBe('Oslo');
      expect(replay.counts).toEqual({ replayed: 0, recorded: 0, missed: 0 });
      expect(model.requests.length).toBe(before + 2);
    } finally {
      for (const k of ['OBS_BASE_URL', 'OBS_PUBLIC_KEY', 'OBS_SECRET_KEY']) {
        if (previous[k] === undefined) delete process.env[k];
        else process.env[k] = previous[k];
      }
    }
  });
});

describe('other undici versions under fetch', () => {
  // undici 7's fetch (Node.js 24's) reads the first global slot and speaks the old handler
  // protocol; undici 8's reads the second and speaks the new one (onRequestStart, onResponseStart...).
  it.for(['undici7', 'undici8'] as const)('%s: record then replay (a stream too) through its fetch', async (name) => {
    const undici = (await import(name)) as { fetch: typeof fetch };
    ensureDispatcherWrapped(); // loading undici 8 replaced the global dispatchers
    const client = new OpenAI({ baseURL: model.baseURL, apiKey: API_KEY, maxRetries: 0, fetch: undici.fetch as typeof fetch });
    const capital = async (country: string, stream: boolean) => {
      const messages = [{ role: 'user' as const, content: `Capital of ${country}?` }];
      if (!stream) return (await client.chat.completions.create({ model: 'stand-in-1', messages })).choices[0]!.message.content;
      let text = '';
      for await (const chunk of await client.chat.completions.create({ model: 'stand-in-1', messages, stream: true }))
        text += chunk.choices[0]?.delta.content ?? '';
      return text;
    };
    const file = `${name}.json`;
    const before = model.requests.length;
    const record = scope('record', file);
    model.gzip = true;
    expect(await inCacheScope(record, async () => [await capital('India', false), await capital('Egypt', true)])).toEqual([
      'New Delhi',
      'Cairo',
    ]);
    record.cassette.save();
    expect(record.counts.recorded).toBe(2);
    expect(model.requests.length - before).toBe(2);
    const replay = scope('replay', file);
    expect(await inCacheScope(replay, async () => [await capital('India', false), await capital('Egypt', true)])).toEqual([
      'New Delhi',
      'Cairo',
    ]);
    expect(replay.counts).toEqual({ replayed: 2, recorded: 0, missed: 0 });
    expect(model.requests.length - before).toBe(2);
    // Node.js's own fetch is still caught after another undici took the global slots (same call, same key).
    const native = scope('replay', file);
    expect(await inCacheScope(native, () => ask('India'))).toBe('New Delhi');
    expect(native.counts.replayed).toBe(1);
    expect(model.requests.length - before).toBe(2);
  });
});

describe('the request key', () => {
  it('is the method, the URL without credentials and the body with its keys sorted; headers are not in it', () => {
    const a = keyRequest('post', 'https://api.example.com/v1/x?key=AIza-secret&alt=sse', Buffer.from('{"b":1,"a":{"d":2,"c":3}}'));
    const b = keyRequest('POST', 'https://api.example.com/v1/x?key=other-secret&alt=sse', Buffer.from('{"a":{"c":3,"d":2},"b":1}'));
    expect(a.key).toBe(b.key);
    expect(a.url).toBe('https://api.example.com/v1/x?key=REDACTED&alt=sse');
    expect(JSON.stringify(a.body)).toBe('{"a":{"c":3,"d":2},"b":1}');
    expect(keyRequest('POST', 'https://api.example.com/v1/x', Buffer.from('{"a":1}')).key).not.toBe(
      keyRequest('POST', 'https://api.example.com/v1/x', Buffer.from('{"a":2}')).key,
    );
    expect(keyRequest('GET', 'https://u:p@api.example.com/v1/x?api_key=1', undefined).url).toBe(
      'https://api.example.com/v1/x?api_key=REDACTED',
    );
  });

  it('OBS_EVAL_CACHE: off by default; an unknown value throws rather than call the model', () => {
    expect(evalCacheMode({})).toBe('off');
    expect(evalCacheMode({ OBS_EVAL_CACHE: ' Replay ' })).toBe('replay');
    expect(() => evalCacheMode({ OBS_EVAL_CACHE: 'replya' })).toThrow('OBS_EVAL_CACHE=replya is not one of off, record, replay, auto');
  });
});

async function startErrorServer(status: number): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'unavailable' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise((r) => server.close(() => r())) };
}
