import { Server as HttpServer, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startObsServer, VERSION, type DecodedSpan, type ObsServer } from '../src/index.js';
import { basic, gzip, makeSpans, toJson, toProtobuf } from './helpers.js';

/** Node's `server.keepAliveTimeout` (5 s): how long a server keeps an idle keep-alive connection open. */
const KEEP_ALIVE_TIMEOUT_MS = new HttpServer().keepAliveTimeout;

let obs: ObsServer;
let auth: string;
const received: DecodedSpan[][] = [];

beforeAll(async () => {
  obs = await startObsServer({ quiet: true, onSpans: (spans) => received.push(spans) });
  auth = basic(obs.publicKey, obs.secretKey);
});
afterAll(() => obs.close());
beforeEach(() => {
  obs.reset();
  received.length = 0;
});

const TRACES = '/api/public/otel/v1/traces';

function post(path: string, body: Buffer | string, headers: Record<string, string> = {}) {
  return fetch(obs.url + path, { method: 'POST', body: bytes(body), headers: { authorization: auth, ...headers } });
}

function postScores(scores: unknown, authorization = auth) {
  return fetch(`${obs.url}/api/public/scores`, {
    method: 'POST',
    body: JSON.stringify(scores),
    headers: { authorization, 'content-type': 'application/json' },
  });
}

const bytes = (body: Buffer | string) => (typeof body === 'string' ? body : new Uint8Array(body));
const get = (path: string, authorization = auth) => fetch(obs.url + path, { headers: { authorization } });

describe('server basics', () => {
  it('has the documented defaults', () => {
    expect(obs.url).toBe(`http://127.0.0.1:${obs.port}`);
    expect(obs.port).toBeGreaterThan(0);
    expect([obs.publicKey, obs.secretKey, obs.projectId]).toEqual(['pk-obs-local', 'sk-obs-local', 'local-project']);
  });

  it('answers health without auth, projects with auth', async () => {
    const health = await fetch(`${obs.url}/api/public/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'OK', version: VERSION });
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);

    expect((await get('/api/public/projects', basic('pk-obs-local', 'wrong'))).status).toBe(401);
    const projects = await get('/api/public/projects');
    expect(await projects.json()).toEqual({ data: [{ id: 'local-project', name: 'Local Project' }] });
  });

  it('echoes any other /api/public path with auth and records it', async () => {
    const res = await fetch(`${obs.url}/api/public/datasets/my%20set/items?page=2`, {
      method: 'PATCH',
      body: JSON.stringify({ a: 1 }),
      headers: { authorization: auth, 'content-type': 'application/json', 'X-Custom': 'yes' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      method: 'PATCH',
      path: '/api/public/datasets/my%20set/items',
      query: { page: '2' },
      body: { a: 1 },
    });
    const [r] = obs.requests;
    expect(r).toMatchObject({
      method: 'PATCH',
      path: '/api/public/datasets/my%20set/items',
      query: { page: '2' },
      status: 200,
      auth: 'secret',
    });
    expect(r!.url).toBe('/api/public/datasets/my%20set/items?page=2');
    expect(r!.headers['x-custom']).toBe('yes');
    expect(r!.rawHeaders).toContain('X-Custom');
    expect(r!.json).toEqual({ a: 1 });
    expect((await fetch(`${obs.url}/api/public/datasets`)).status).toBe(401);
    expect((await get('/elsewhere')).status).toBe(404);
  });
});

describe('POST /api/public/otel/v1/traces', () => {
  it('decodes protobuf, uncompressed and gzip', async () => {
    const body = toProtobuf(makeSpans());
    const plain = await post(TRACES, body, { 'content-type': 'application/x-protobuf' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('application/x-protobuf');
    expect((await plain.arrayBuffer()).byteLength).toBe(0);

    const body2 = toProtobuf(makeSpans()); // a second trace
    const zipped = gzip(body2);
    const res = await post(TRACES, zipped, { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
    expect(res.status).toBe(200);

    const spans = obs.spans();
    expect(spans).toHaveLength(6);
    expect(spans.slice(0, 3).every((s) => !s.compressed && s.encoding === 'protobuf')).toBe(true);
    expect(spans.slice(3).every((s) => s.compressed)).toBe(true);
    expect(obs.traceIds()).toHaveLength(2);
    expect(
      obs
        .spansByTrace(obs.traceIds()[1]!)
        .map((s) => s.name)
        .sort(),
    ).toEqual(['POST /chat', 'llm-call', 'search']);
    expect(obs.spansByName('llm-call')).toHaveLength(2);
    expect(obs.spansByName(/^POST /g)).toHaveLength(2);
    expect(obs.spansByName(/^POST /g)).toHaveLength(2); // a global RegExp is not stateful here
    expect(received.map((batch) => batch.length)).toEqual([3, 3]);

    const r = obs.requests[1]!;
    expect(r.rawBody.equals(zipped)).toBe(true);
    expect(r.body.equals(body2)).toBe(true);
    expect(r.json).toBeUndefined();
    expect(r.status).toBe(200);
  });

  it('decodes OTLP/JSON and answers {}', async () => {
    const res = await post(TRACES, gzip(toJson(makeSpans())), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({});
    const [llm] = obs.spansByName('llm-call');
    expect(llm).toMatchObject({ encoding: 'json', compressed: true, attributes: { int: 42, double: 1.5, strings: ['x', 'y'] } });
  });

  it('rejects bad auth with 401 JSON and stores nothing', async () => {
    const body = toProtobuf(makeSpans());
    const headers = { 'content-type': 'application/x-protobuf' };
    for (const authorization of [basic('pk-obs-local', 'nope'), basic('pk-obs-local', ''), 'Bearer x']) {
      const res = await post(TRACES, body, { ...headers, authorization });
      expect(res.status).toBe(401);
      expect(typeof ((await res.json()) as { message: unknown }).message).toBe('string');
    }
    const none = await fetch(obs.url + TRACES, { method: 'POST', body: bytes(body), headers });
    expect(none.status).toBe(401);
    expect(obs.requests.map((r) => [r.status, r.auth])).toEqual([
      [401, 'invalid'],
      [401, 'public-only'],
      [401, 'invalid'],
      [401, 'none'],
    ]);
    expect(obs.spans()).toEqual([]);
  });

  it('answers 400 for malformed bodies and 415 for other content types, and keeps running', async () => {
    const cases: Array<[Buffer | string, Record<string, string>, number]> = [
      [Buffer.from([0x0a, 0xff, 0xff]), { 'content-type': 'application/x-protobuf' }, 400],
      ['{"resourceSpans": 3}', { 'content-type': 'application/json' }, 400],
      ['{oops', { 'content-type': 'application/json' }, 400],
      ['not gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, 400],
      ['x', { 'content-type': 'application/json', 'content-encoding': 'zstd-ish' }, 400],
      ['x', { 'content-type': 'text/plain' }, 415],
    ];
    for (const [body, headers, status] of cases) {
      const res = await post(TRACES, body, headers);
      expect(res.status, JSON.stringify(headers)).toBe(status);
      expect(((await res.json()) as { message: string }).message.length).toBeGreaterThan(0);
    }
    expect((await post(TRACES, toProtobuf(makeSpans()), { 'content-type': 'application/x-protobuf' })).status).toBe(200);
  });
});

describe('scores', () => {
  it('accepts a batch with 200 { accepted }', async () => {
    const res = await postScores([
      { id: 's1', traceId: 't1', name: 'quality', value: 0.9 },
      { id: 's2', traceId: 't2', name: 'label', value: 'good', dataType: 'CATEGORICAL' },
    ]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 2 });
    expect(obs.scores).toHaveLength(2);
    expect(obs.scores[0]).toMatchObject({ id: 's1', name: 'quality', value: 0.9 });
    expect(typeof obs.scores[0]!.receivedAt).toBe('number');
    expect(obs.scoreRequests).toHaveLength(1);
    expect(obs.scoreRequests[0]!.auth).toBe('secret');
  });

  it('answers 207 with errors for invalid and rule-rejected scores', async () => {
    obs.rejectScores((score) => (score.name === 'forbidden' ? 'name is forbidden' : undefined));
    const res = await postScores([
      { id: 'ok', name: 'quality', value: 1 },
      { id: 'no-name', value: 1 },
      { id: 'bad-value', name: 'x', value: { nested: true } },
      { id: 'rule', name: 'forbidden', value: 1 },
      { name: 'no-id', value: null },
    ]);
    expect(res.status).toBe(207);
    const body = (await res.json()) as {
      accepted: number;
      rejected: number;
      errors: Array<{ index: number; id?: string; message: string }>;
    };
    expect(body.accepted).toBe(1);
    expect(body.rejected).toBe(4);
    expect(body.errors.map((e) => [e.index, e.id])).toEqual([
      [1, 'no-name'],
      [2, 'bad-value'],
      [3, 'rule'],
      [4, undefined],
    ]);
    expect(body.errors[2]!.message).toBe('name is forbidden');
    expect(obs.scores.map((s) => s.id)).toEqual(['ok']);

    obs.resetScoreRules();
    expect((await postScores([{ name: 'forbidden', value: 1 }])).status).toBe(200);
  });

  it('accepts the public key alone (browser client) and records it', async () => {
    const res = await postScores([{ name: 'thumbs', value: 1 }], basic('pk-obs-local', ''));
    expect(res.status).toBe(200);
    expect(obs.scoreRequests[0]!.auth).toBe('public-only');
    expect((await postScores([{ name: 'x', value: 1 }], basic('pk-other', ''))).status).toBe(401);
    expect((await get('/api/public/projects', basic('pk-obs-local', ''))).status).toBe(401);
  });

  it('rejects a non-array body with 400', async () => {
    const res = await postScores({ name: 'single', value: 1 });
    expect(res.status).toBe(400);
    expect(obs.scores).toHaveLength(0);
  });

  it('reads scores through v3 and deletes them', async () => {
    await postScores([
      { id: 'a', traceId: 't1', name: 'n', value: 1 },
      { id: 'b', traceId: 't2', name: 'n', value: 2 },
    ]);
    const byTrace = await (await get('/api/public/v3/scores?traceId=t2')).json();
    expect(byTrace).toMatchObject({ data: [{ id: 'b', value: 2 }], meta: { cursor: null } });
    const byId = (await (await get('/api/public/v3/scores?id=a')).json()) as { data: unknown[] };
    expect(byId.data).toHaveLength(1);

    const del = await fetch(`${obs.url}/api/public/scores/a`, { method: 'DELETE', headers: { authorization: auth } });
    expect(del.status).toBe(204);
    expect(obs.scores.map((s) => s.id)).toEqual(['b']);
    expect(obs.requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/api/public/scores/a', status: 204 });
  });
});

describe('GET /api/public/v2/observations', () => {
  beforeEach(async () => {
    await post(TRACES, toProtobuf(makeSpans()), { 'content-type': 'application/x-protobuf' });
    await post(TRACES, toProtobuf(makeSpans()), { 'content-type': 'application/x-protobuf' });
  });

  // biome-ignore lint/suspicious/noExplicitAny: the tests read the observations' fields directly
  type Page = { data: Array<Record<string, any>>; meta: { cursor: string | null } };
  const list = async (query: string) => (await (await get(`/api/public/v2/observations?${query}`)).json()) as Page;

  it('builds observations from spans and filters by traceId', async () => {
    const traceId = obs.traceIds()[0]!;
    const page = await list(`traceId=${traceId}`);
    expect(page.data).toHaveLength(3);
    expect(page.meta.cursor).toBeNull();
    const gen = page.data.find((o) => o.name === 'llm-call')!;
    const root = page.data.find((o) => o.name === 'POST /chat')!;
    expect(gen).toMatchObject({
      traceId,
      parentObservationId: root.id,
      type: 'generation',
      metadata: { a: { b: 1 }, flag: true },
      model: 'gpt-test',
      level: 'ERROR', // from the OTel error status, when obs.observation.level is absent
      statusMessage: 'boom',
      sessionId: null,
    });
    expect(root).toMatchObject({
      input: '{"q":"hi"}',
      output: '{"a":"hello"}',
      parentObservationId: null,
      sessionId: 'sess-1',
      userId: 'user-1',
    });
    expect(new Date(root.startTime).toISOString()).toBe(root.startTime);
  });

  it('supports filter on name, type and id, sessionId, cursor and limit', async () => {
    const f = (filter: unknown) => `filter=${encodeURIComponent(JSON.stringify(filter))}`;
    expect((await list(f([{ type: 'string', column: 'name', operator: '=', value: 'search' }]))).data).toHaveLength(2);
    const gens = await list(f([{ type: 'string', column: 'type', operator: '=', value: 'GENERATION' }]));
    expect(gens.data.map((o) => o.name)).toEqual(['llm-call', 'llm-call']);
    const id = gens.data[0]!.id as string;
    const one = await list(f([{ type: 'string', column: 'id', operator: '=', value: id }]));
    expect(one.data.map((o) => o.id)).toEqual([id]);
    expect((await list('sessionId=sess-1')).data).toHaveLength(2);

    const first = await list('limit=4');
    expect(first.data).toHaveLength(4);
    expect(first.meta.cursor).toBe('4');
    const second = await list(`limit=4&cursor=${first.meta.cursor}`);
    expect(second.data).toHaveLength(2);
    expect(second.meta.cursor).toBeNull();

    expect((await get(`/api/public/v2/observations?filter=nope`)).status).toBe(400);
  });
});

describe('faults', () => {
  const body = () => toProtobuf(makeSpans());
  const headers = { 'content-type': 'application/x-protobuf' };

  it('answers a status with Retry-After and does not store the spans', async () => {
    obs.injectFault({ path: TRACES, status: 429, retryAfter: 2 });
    const res = await post(TRACES, body(), headers);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toEqual({ message: 'injected fault' });
    expect(obs.spans()).toHaveLength(0);
    expect(obs.requests[0]!.status).toBe(429);

    const ok = await post(TRACES, body(), headers);
    expect(ok.status).toBe(200);
    expect(obs.spans()).toHaveLength(3);
  });

  it('applies `times` and a custom body, then stops', async () => {
    obs.injectFault({ status: 503, times: 2, body: { error: 'down' } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(TRACES, body(), headers)).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect(obs.requests.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(obs.spans()).toHaveLength(3);
  });

  it('matches paths exactly or by RegExp, first queued first', async () => {
    obs.injectFault({ path: /\/scores$/, status: 500 });
    obs.injectFault({ path: '/api/public/projects', status: 502 });
    expect((await get('/api/public/projects')).status).toBe(502);
    expect((await get('/api/public/projects')).status).toBe(200);
    const res = await postScores([{ name: 'a', value: 1 }]);
    expect(res.status).toBe(500);
    expect(obs.scores).toHaveLength(0);
    expect(obs.scoreRequests[0]!.status).toBe(500);
  });

  it('delays, then answers normally', async () => {
    obs.injectFault({ path: TRACES, delayMs: 150 });
    const started = Date.now();
    const res = await post(TRACES, body(), headers);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(obs.spans()).toHaveLength(3);
  });

  it('delays then answers a status', async () => {
    obs.injectFault({ delayMs: 50, status: 504 });
    const started = Date.now();
    expect((await get('/api/public/projects')).status).toBe(504);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('resets the socket without answering', async () => {
    obs.injectFault({ path: TRACES, reset: true });
    await expect(post(TRACES, body(), headers)).rejects.toThrow();
    expect(obs.requests).toHaveLength(1);
    expect(obs.requests[0]!.status).toBe(0);
    expect(obs.spans()).toHaveLength(0);
    expect((await post(TRACES, body(), headers)).status).toBe(200);
  });

  it('clearFaults and reset drop queued faults; invalid faults throw', async () => {
    obs.injectFault({ status: 500 });
    obs.clearFaults();
    expect((await get('/api/public/projects')).status).toBe(200);
    obs.injectFault({ status: 500 });
    obs.reset();
    expect((await get('/api/public/projects')).status).toBe(200);
    expect(() => obs.injectFault({ path: '/x' })).toThrow();
    expect(() => obs.injectFault({ status: 500, times: 0 })).toThrow();
  });
});

describe('waiting and lifecycle', () => {
  it('waitForSpans resolves once spans arrive', async () => {
    const waiting = obs.waitForSpans(3, { timeoutMs: 2000 });
    setTimeout(() => void post(TRACES, toProtobuf(makeSpans()), { 'content-type': 'application/x-protobuf' }), 30);
    expect((await waiting).map((s) => s.name).sort()).toEqual(['POST /chat', 'llm-call', 'search']);
  });

  it('waitFor rejects with a clear message on timeout', async () => {
    await get('/api/public/projects');
    await expect(obs.waitForSpans(1, { timeoutMs: 50 })).rejects.toThrow(
      /timed out after 50ms waiting for at least 1 span.*GET \/api\/public\/projects -> 200/,
    );
    await expect(
      obs.waitFor(
        () => {
          throw new Error('not yet');
        },
        { timeoutMs: 30 },
      ),
    ).rejects.toThrow(/last probe error: not yet/);
    expect(await obs.waitFor(() => 'value')).toBe('value');
  });

  it('reset empties the arrays in place', async () => {
    const requests = obs.requests;
    await postScores([{ name: 'a', value: 1 }]);
    expect(requests).toHaveLength(1);
    obs.reset();
    expect(requests).toHaveLength(0);
    expect(obs.scores).toHaveLength(0);
  });

  it('close() ends keep-alive connections promptly', async () => {
    const other = await startObsServer({ quiet: true });
    // A keep-alive connection stays open after the answer.
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${other.url}/api/public/health`, { agent: undefined, headers: { connection: 'keep-alive' } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
    // Node keeps an idle keep-alive socket open for the server's keepAliveTimeout: a close
    // that waited for it would take that long. The bound is half of it, not a machine's speed.
    const started = performance.now();
    await other.close();
    await other.close(); // idempotent
    expect(performance.now() - started).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS / 2);
    await expect(fetch(`${other.url}/api/public/health`)).rejects.toThrow();
  });
});
