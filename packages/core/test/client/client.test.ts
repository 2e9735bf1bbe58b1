import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObsApiError } from '../../src/client/api/core/errors.js';
import { ObsClient } from '../../src/client/client.js';
import { CLIENT_KEYS, type LogLine, routeLogsInto } from '../support/server.js';
import { clientFor, messages, TRACE_ID } from './helpers.js';

const logs: LogLine[] = [];
const { server } = await setupObsServer({ ...CLIENT_KEYS, beforeEach: () => routeLogsInto(logs) }).ready;

// Contract 4.6: the 16 client aliases removed in major 6.
const REMOVED_ALIASES = [
  'getPrompt',
  'createPrompt',
  'updatePrompt',
  'getDataset',
  'createDatasetItem',
  'resolveMediaReferences',
  'createDataset',
  'getDatasetItem',
  'fetchMedia',
  'fetchTrace',
  'fetchTraces',
  'fetchObservation',
  'fetchObservations',
  'fetchSessions',
  'getDatasetRun',
  'getDatasetRuns',
];

describe('ObsClient', () => {
  it('has the members of the API and none of the 16 removed aliases', () => {
    const client = clientFor(server);
    for (const m of ['api', 'score', 'prompt', 'dataset', 'media']) expect(client).toHaveProperty(m);
    for (const m of ['getProjectId', 'getExperimentUrl', 'getTraceUrl', 'flush', 'shutdown']) {
      expect(typeof (client as unknown as Record<string, unknown>)[m]).toBe('function');
    }
    expect(REMOVED_ALIASES).toHaveLength(16);
    for (const alias of REMOVED_ALIASES) {
      expect(alias in client).toBe(false);
      const loose = client as unknown as Record<string, (...a: unknown[]) => unknown>;
      expect(() => loose[alias]!('x')).toThrow(TypeError);
      expect(() => loose[alias]!('x')).toThrow(/is not a function/);
    }
  });

  it('reads the project id once and builds trace and experiment URLs', async () => {
    const client = clientFor(server);
    expect(await client.getProjectId()).toBe(server.projectId);
    expect(await client.getTraceUrl(TRACE_ID)).toBe(`${server.url}/project/${server.projectId}/traces/${TRACE_ID}`);
    expect(await client.getExperimentUrl('exp 1')).toBe(`${server.url}/project/${server.projectId}/experiments/exp%201`);
    expect(server.requests.filter((r) => r.path === '/api/public/projects')).toHaveLength(1);
  });

  it('resolves undefined (and logs) when the project cannot be read, and tries again later', async () => {
    server.injectFault({ path: '/api/public/projects', status: 403, times: 1 });
    const client = clientFor(server);
    expect(await client.getTraceUrl('t')).toBeUndefined();
    expect(messages(logs, 'error')[0]).toMatch(/^Obs could not read the project id: projects\.get failed with HTTP 403/);
    expect(await client.getProjectId()).toBe(server.projectId);
  });

  it('takes the base URL and keys from OBS_* variables', async () => {
    const saved = { ...process.env };
    process.env.OBS_PUBLIC_KEY = server.publicKey;
    process.env.OBS_SECRET_KEY = server.secretKey;
    process.env.OBS_BASE_URL = `${server.url}/`;
    try {
      const client = new ObsClient();
      await expect(client.api.health.health()).resolves.toMatchObject({ status: 'OK' });
      client.score.create({ traceId: TRACE_ID, name: 'env', value: 1 });
      await client.flush();
      expect(server.scores).toHaveLength(1);
    } finally {
      process.env = saved;
    }
  });

  it('flush() and shutdown() deliver queued scores', async () => {
    const client = clientFor(server, { flushAt: 1000, flushInterval: 60 });
    client.score.create({ traceId: TRACE_ID, name: 'a', value: 1 });
    await client.flush();
    expect(server.scores).toHaveLength(1);
    client.score.create({ traceId: TRACE_ID, name: 'b', value: 1 });
    await client.shutdown();
    expect(server.scores).toHaveLength(2);
  });
});

describe('ObsClient without keys or base URL', () => {
  it('warns once, never throws, drops scores and refuses API calls', async () => {
    const saved = { ...process.env };
    for (const k of ['OBS_PUBLIC_KEY', 'OBS_SECRET_KEY', 'OBS_BASE_URL', 'OBS_BASEURL']) delete process.env[k];
    try {
      const client = new ObsClient();
      new ObsClient({ publicKey: 'pk' });
      const warnings = messages(logs, 'warn');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('secretKey (OBS_SECRET_KEY)');
      expect(warnings[0]).toContain('baseUrl (OBS_BASE_URL)');

      expect(() => client.score.create({ traceId: TRACE_ID, name: 'a', value: 1 })).not.toThrow();
      expect(() => client.score.create(null as never)).not.toThrow();
      await expect(client.flush()).resolves.toBeUndefined();
      await expect(client.shutdown()).resolves.toBeUndefined();
      await expect(client.getProjectId()).resolves.toBeUndefined();
      await expect(client.getTraceUrl('t')).resolves.toBeUndefined();
      await expect(client.getExperimentUrl('e')).resolves.toBeUndefined();
      const err = await client.api.health.health().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ObsApiError);
      expect((err as Error).message).toMatch(/^health\.health was not sent: the obs client is not configured \(missing /);
      expect(messages(logs, 'error')).toEqual([]);
      expect(server.requests).toHaveLength(0);
    } finally {
      process.env = saved;
    }
  });

  it('never throws on garbage options', () => {
    for (const options of [null, 42, 'x', [], { flushAt: -1, flushInterval: NaN, timeout: 'x', maxRetries: 1.5 }]) {
      expect(() => new ObsClient(options as never)).not.toThrow();
    }
  });
});

describe('managers', () => {
  it('prompt.get / create / update go through api.prompts and api.promptVersion', async () => {
    const client = clientFor(server);
    for (const v of [1, 2, 3]) await client.api.prompts.create({ name: 'greeting', prompt: `Hi {{name}} v${v}` });
    server.requests.length = 0;
    await client.prompt.get('greeting', { version: 3 });
    await client.prompt.create({ name: 'greeting', prompt: 'Hi {{name}}', labels: ['staging'] });
    await client.prompt.update({ name: 'greeting', version: 3, newLabels: ['production'] });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/public/v2/prompts/greeting',
      'POST /api/public/v2/prompts',
      'PATCH /api/public/v2/prompts/greeting/versions/3',
    ]);
    expect(server.requests[0]!.query).toEqual({ version: '3' });
    expect(server.requests[2]!.json).toEqual({ newLabels: ['production'] });
  });

  it('dataset.get returns the dataset with a plain array of all its items, page by page', async () => {
    const items = Array.from({ length: 5 }, (_, i) => ({ id: `item-${i}`, input: i }));
    const fake: typeof fetch = async (input) => {
      const url = new URL(String(input));
      if (url.pathname === '/api/public/v2/datasets/qa') {
        return Response.json({ id: 'ds-1', name: 'qa', createdAt: '2026-01-01T00:00:00Z' });
      }
      const page = Number(url.searchParams.get('page'));
      const limit = Number(url.searchParams.get('limit'));
      return Response.json({
        data: items.slice((page - 1) * limit, page * limit),
        meta: { page, limit, totalItems: items.length, totalPages: Math.ceil(items.length / limit) },
      });
    };
    const client = new ObsClient({ publicKey: 'pk', secretKey: 'sk', baseUrl: 'http://obs.invalid', fetch: fake });
    const dataset = await client.dataset.get('qa', { fetchItemsPageSize: 2 });
    expect(dataset.id).toBe('ds-1');
    expect(dataset.createdAt).toBe('2026-01-01T00:00:00Z');
    expect(Array.isArray(dataset.items)).toBe(true);
    expect(dataset.items.map((i) => i.id)).toEqual(items.map((i) => i.id));
    expect(dataset.items[0]).not.toHaveProperty('link');
  });

  it('dataset.get and createItem hit the dataset endpoints of the real server', async () => {
    const client = clientFor(server);
    await client.api.datasets.create({ name: 'qa' });
    server.requests.length = 0;
    await client.dataset.createItem({ datasetName: 'qa', input: { q: 1 } });
    const dataset = await client.dataset.get('qa');
    expect(dataset.items.map((i) => i.input)).toEqual([{ q: 1 }]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/public/dataset-items',
      'GET /api/public/v2/datasets/qa',
      'GET /api/public/dataset-items',
    ]);
    expect(server.requests[2]!.query).toEqual({ datasetName: 'qa', page: '1', limit: '50' });
  });

  describe('media.resolveReferences', () => {
    let media: Server;
    let mediaUrl: string;
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]);

    beforeAll(async () => {
      // Stands in for the obs media endpoint and the object store its URLs point at.
      media = createServer((req, res) => {
        if (req.url === '/api/public/media/m1') {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ mediaId: 'm1', contentType: 'image/png', url: `${mediaUrl}/blob/m1` }));
        } else if (req.url === '/blob/m1') {
          res.end(Buffer.from(png));
        } else {
          res.statusCode = 404;
          res.end('{}');
        }
      });
      await new Promise<void>((r) => media.listen(0, '127.0.0.1', r));
      mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise((r) => media.close(r));
    });

    it('replaces references with data URIs, and leaves the unresolvable ones', async () => {
      const client = new ObsClient({ publicKey: 'pk', secretKey: 'sk', baseUrl: mediaUrl, maxRetries: 0 });
      const ref = '@@@obsMedia:type=image/png|id=m1|source=base64_data_uri@@@';
      const missing = '@@@obsMedia:type=image/png|id=gone|source=bytes@@@';
      const input = { messages: [{ content: `see ${ref}` }, { content: missing }], n: 1 };
      const out = await client.media.resolveReferences({ obj: input, resolveWith: 'base64DataUri' });
      expect(out).toEqual({
        messages: [{ content: `see data:image/png;base64,${Buffer.from(png).toString('base64')}` }, { content: missing }],
        n: 1,
      });
      expect(input.messages[0]!.content).toBe(`see ${ref}`);
      expect(messages(logs, 'warn')[0]).toMatch(/^Obs could not resolve media gone: media\.get failed with HTTP 404/);
    });

    it('returns the object unchanged when it holds no reference', async () => {
      const client = clientFor(server);
      const obj = { a: 'plain' };
      expect(await client.media.resolveReferences({ obj, resolveWith: 'base64DataUri' })).toBe(obj);
      expect(server.requests).toHaveLength(0);
    });
  });
});
