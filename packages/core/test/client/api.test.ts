import { setupObsServer } from '@obs/local-server/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ObsApiClient } from '../../src/client/api/client.js';
import { ObsApiError, ObsApiTimeoutError } from '../../src/client/api/core/errors.js';
import { CLIENT_KEYS } from '../support/server.js';
import { clientFor, timedFetch } from './helpers.js';

const { server } = await setupObsServer(CLIENT_KEYS).ready;
const api: ObsApiClient = clientFor(server).api;

/** A path parameter that must be percent-encoded to stay one segment. */
const P = 'a b/c?d';
const E = encodeURIComponent(P);

// Contract 4.2, verbatim: the 41 methods with the empty request placeholder.
const CONTRACT_4_2: Array<[method: string, http: 'GET' | 'DELETE', template: string]> = [
  ['annotationQueues.getQueue', 'GET', '/api/public/annotation-queues/{queueId}'],
  ['annotationQueues.getQueueItem', 'GET', '/api/public/annotation-queues/{queueId}/items/{itemId}'],
  ['annotationQueues.deleteQueueItem', 'DELETE', '/api/public/annotation-queues/{queueId}/items/{itemId}'],
  ['blobStorageIntegrations.getBlobStorageIntegrations', 'GET', '/api/public/integrations/blob-storage'],
  ['blobStorageIntegrations.getBlobStorageIntegrationStatus', 'GET', '/api/public/integrations/blob-storage/{id}'],
  ['blobStorageIntegrations.deleteBlobStorageIntegration', 'DELETE', '/api/public/integrations/blob-storage/{id}'],
  ['comments.getById', 'GET', '/api/public/comments/{commentId}'],
  ['datasetItems.get', 'GET', '/api/public/dataset-items/{id}'],
  ['datasetItems.delete', 'DELETE', '/api/public/dataset-items/{id}'],
  ['datasets.get', 'GET', '/api/public/v2/datasets/{datasetName}'],
  ['evaluationRules.get', 'GET', '/api/public/v2/evaluation-rules/{evaluationRuleId}'],
  ['evaluationRules.delete', 'DELETE', '/api/public/v2/evaluation-rules/{evaluationRuleId}'],
  ['evaluators.get', 'GET', '/api/public/v2/evaluators/{evaluatorId}'],
  ['evaluators.delete', 'DELETE', '/api/public/v2/evaluators/{evaluatorId}'],
  ['health.health', 'GET', '/api/public/health'],
  ['llmConnections.delete', 'DELETE', '/api/public/llm-connections/{id}'],
  ['media.get', 'GET', '/api/public/media/{mediaId}'],
  ['models.get', 'GET', '/api/public/models/{id}'],
  ['models.delete', 'DELETE', '/api/public/models/{id}'],
  ['organizations.getOrganizationMemberships', 'GET', '/api/public/organizations/memberships'],
  ['organizations.getProjectMemberships', 'GET', '/api/public/projects/{projectId}/memberships'],
  ['organizations.getOrganizationProjects', 'GET', '/api/public/organizations/projects'],
  ['organizations.getOrganizationApiKeys', 'GET', '/api/public/organizations/apiKeys'],
  ['projects.get', 'GET', '/api/public/projects'],
  ['projects.delete', 'DELETE', '/api/public/projects/{projectId}'],
  ['projects.getApiKeys', 'GET', '/api/public/projects/{projectId}/apiKeys'],
  ['projects.deleteApiKey', 'DELETE', '/api/public/projects/{projectId}/apiKeys/{apiKeyId}'],
  ['scim.getServiceProviderConfig', 'GET', '/api/public/scim/ServiceProviderConfig'],
  ['scim.getResourceTypes', 'GET', '/api/public/scim/ResourceTypes'],
  ['scim.getSchemas', 'GET', '/api/public/scim/Schemas'],
  ['scim.getUser', 'GET', '/api/public/scim/Users/{userId}'],
  ['scim.deleteUser', 'DELETE', '/api/public/scim/Users/{userId}'],
  ['scoreConfigs.getById', 'GET', '/api/public/score-configs/{configId}'],
  ['scores.delete', 'DELETE', '/api/public/scores/{scoreId}'],
  ['trace.delete', 'DELETE', '/api/public/traces/{traceId}'],
  ['unstable.dashboardWidgets.get', 'GET', '/api/public/unstable/dashboard-widgets/{widgetId}'],
  ['unstable.dashboardWidgets.delete', 'DELETE', '/api/public/unstable/dashboard-widgets/{widgetId}'],
  ['unstable.dashboards.get', 'GET', '/api/public/unstable/dashboards/{dashboardId}'],
  ['unstable.dashboards.delete', 'DELETE', '/api/public/unstable/dashboards/{dashboardId}'],
  ['unstable.dashboards.deletePlacement', 'DELETE', '/api/public/unstable/dashboards/{dashboardId}/placements/{placementId}'],
  ['unstable.skills.deleteVersion', 'DELETE', '/api/public/unstable/skills/{skillName}/versions/{skillVersion}'],
];

/** `api.a.b.c` looked up by its dotted name, bound to its namespace. */
function methodOf(a: ObsApiClient, dotted: string): (...args: unknown[]) => Promise<unknown> {
  const parts = dotted.split('.');
  const name = parts.pop()!;
  const ns = parts.reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, a as unknown as Record<string, unknown>);
  const fn = ns[name];
  if (typeof fn !== 'function') throw new Error(`api.${dotted} is missing`);
  return (fn as (...args: unknown[]) => Promise<unknown>).bind(ns);
}

/** One distinct value per path parameter, each needing percent-encoding. */
function paramsOf(template: string): { args: string[]; path: string } {
  const args: string[] = [];
  const path = template.replace(/\{\w+\}/g, () => {
    const v = `${P}${args.length}`;
    args.push(v);
    return encodeURIComponent(v);
  });
  return { args, path };
}

describe('contract 4.2: the 41 placeholder methods', () => {
  it('lists exactly 41 distinct methods', () => {
    expect(new Set(CONTRACT_4_2.map((r) => r[0])).size).toBe(41);
    expect(E).toBe('a%20b%2Fc%3Fd');
  });

  it.each(CONTRACT_4_2)('%s sends %s %s', async (method, http, template) => {
    const { args, path } = paramsOf(template);
    for (const call of [
      () => methodOf(api, method)(...args),
      () => methodOf(api, method)(...args, {}, { timeoutInSeconds: 5, maxRetries: 0 }),
    ]) {
      server.reset();
      // The local server stores datasets and items: the ones these calls name must exist.
      if (method.startsWith('dataset')) {
        await api.datasets.create({ name: args[0]! });
        await api.datasetItems.create({ datasetName: args[0]!, id: args[0]! });
        server.requests.length = 0;
      }
      // It answers media it holds (404 otherwise): the media this call names must exist.
      if (method === 'media.get') server.media.seed({ mediaId: args[0]!, bytes: Buffer.from('x'), contentType: 'text/plain' });
      await call();
      expect(server.requests).toHaveLength(1);
      const req = server.requests[0]!;
      expect(req.method).toBe(http);
      expect(req.path).toBe(path);
      expect(req.status).toBeLessThan(300);
      expect(req.auth).toBe('secret');
      expect(req.body.length).toBe(0);
      expect(req.headers['x-obs-sdk-name']).toBe('javascript');
    }
  });

  it('ignores requestOptions passed in the old position from plain JavaScript', async () => {
    await api.datasets.create({ name: 'x' });
    server.injectFault({ path: '/api/public/v2/datasets/x', delayMs: 300 });
    const js = api.datasets.get as unknown as (name: string, opts: unknown) => Promise<unknown>;
    await expect(js.call(api.datasets, 'x', { timeoutInSeconds: 0.05 })).resolves.toMatchObject({ name: 'x' });
  });
});

describe('other methods', () => {
  // The resources these calls name exist on the local server; only the calls under test are counted.
  beforeEach(async () => {
    await api.datasets.create({ name: 'ds' });
    await api.prompts.create({ name: 'my/prompt', prompt: 'hi', labels: ['production'] });
    await api.prompts.create({ name: 'p', prompt: 'v1' });
    await api.prompts.create({ name: 'p', prompt: 'v2' });
    server.requests.length = 0;
  });
  it('scores.create posts an array and returns the batch answer', async () => {
    const res = await api.scores.create([{ traceId: 't', name: 'n', value: 1, id: 's1' }]);
    expect(res).toEqual({ accepted: 1 });
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/api/public/scores' });
    expect(server.requests[0]!.json).toEqual([{ traceId: 't', name: 'n', value: 1, id: 's1' }]);

    server.rejectScores((s: { name: string }) => (s.name === 'bad' ? 'rejected' : undefined));
    const partial = await api.scores.create([
      { traceId: 't', name: 'bad', value: 1 },
      { traceId: 't', name: 'ok', value: 1 },
    ]);
    expect(partial).toEqual({ accepted: 1, rejected: 1, errors: [{ index: 0, message: 'rejected' }] });
  });

  it('scores.create refuses a single object', async () => {
    const create = api.scores.create as unknown as (x: unknown) => Promise<unknown>;
    await expect(create.call(api.scores, { traceId: 't', name: 'n', value: 1 })).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(0);
  });

  it('scores.getMany reads the v3 API filtered by id', async () => {
    await api.scores.create([
      { traceId: 't1', name: 'n', value: 1, id: 's1' },
      { traceId: 't1', name: 'n', value: 2, id: 's2' },
    ]);
    const res = await api.scores.getMany({ traceId: 't1', id: 's2', fields: 'subject' });
    expect(res.data.map((s) => s.id)).toEqual(['s2']);
    expect(server.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/api/public/v3/scores',
      query: { traceId: 't1', id: 's2', fields: 'subject' },
    });
  });

  it('observations.getMany sends traceId, sessionId, fields and a JSON filter', async () => {
    const filter = [{ type: 'string', column: 'name', operator: '=', value: 'x' }];
    const res = await api.observations.getMany({ traceId: 'abc', sessionId: 's', fields: ['core', 'io'], filter, cursor: '0', limit: 10 });
    expect(res.data).toEqual([]);
    expect(server.requests[0]).toMatchObject({
      method: 'GET',
      path: '/api/public/v2/observations',
      query: { traceId: 'abc', sessionId: 's', fields: 'core,io', filter: JSON.stringify(filter), cursor: '0', limit: '10' },
    });
  });

  it.each<[string, (a: ObsApiClient) => Promise<unknown>, string, string, Record<string, string>?, unknown?]>([
    [
      'metrics.metrics',
      (a) => a.metrics.metrics({ query: { view: 'traces' } }),
      'GET',
      '/api/public/metrics',
      { query: '{"view":"traces"}' },
    ],
    [
      'experiments.list',
      (a) => a.experiments.list({ datasetId: 'd', fromStartTime: new Date(0) }),
      'GET',
      '/api/public/experiments',
      { datasetId: 'd', fromStartTime: '1970-01-01T00:00:00.000Z' },
    ],
    [
      'experiments.listItems',
      (a) => a.experiments.listItems({ datasetId: 'd', experimentName: 'e', cursor: 'c' }),
      'GET',
      '/api/public/experiment-items',
      { datasetId: 'd', experimentName: 'e', cursor: 'c' },
    ],
    [
      'trace.deleteMultiple',
      (a) => a.trace.deleteMultiple({ traceIds: ['a', 'b'] }),
      'DELETE',
      '/api/public/traces',
      {},
      { traceIds: ['a', 'b'] },
    ],
    ['datasets.create', (a) => a.datasets.create({ name: 'ds' }), 'POST', '/api/public/v2/datasets', {}, { name: 'ds' }],
    ['datasets.list', (a) => a.datasets.list({ page: 2 }), 'GET', '/api/public/v2/datasets', { page: '2' }],
    [
      'datasetItems.create',
      (a) => a.datasetItems.create({ datasetName: 'ds', input: 1 }),
      'POST',
      '/api/public/dataset-items',
      {},
      { datasetName: 'ds', input: 1 },
    ],
    [
      'datasetItems.list',
      (a) => a.datasetItems.list({ datasetName: 'ds', page: 1, limit: 5 }),
      'GET',
      '/api/public/dataset-items',
      { datasetName: 'ds', page: '1', limit: '5' },
    ],
    [
      'prompts.get',
      (a) => a.prompts.get('my/prompt', { label: 'production' }),
      'GET',
      '/api/public/v2/prompts/my%2Fprompt',
      { label: 'production' },
    ],
    [
      'prompts.create',
      (a) => a.prompts.create({ name: 'p', prompt: 'hi {{x}}' }),
      'POST',
      '/api/public/v2/prompts',
      {},
      { name: 'p', prompt: 'hi {{x}}' },
    ],
    [
      'promptVersion.update',
      (a) => a.promptVersion.update('p', 2, { newLabels: ['prod'] }),
      'PATCH',
      '/api/public/v2/prompts/p/versions/2',
      {},
      { newLabels: ['prod'] },
    ],
  ])('%s sends %s %s', async (_name, call, method, path, query = {}, body = undefined) => {
    await call(api);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req).toMatchObject({ method, path });
    expect(req.query).toEqual(query);
    if (body !== undefined) expect(req.json).toEqual(body);
    else expect(req.body.length).toBe(0);
  });

  it('has no removed namespaces or methods (contract 4.5): JavaScript gets a TypeError', () => {
    const loose = api as unknown as Record<string, Record<string, unknown> | undefined>;
    for (const ns of ['legacy', 'scoresV3', 'sessions', 'datasetRunItems']) {
      expect(loose[ns]).toBeUndefined();
      expect(() => (loose[ns] as unknown as { list: () => void }).list()).toThrow(TypeError);
    }
    const removed: Array<[string, string]> = [
      ['trace', 'get'],
      ['trace', 'list'],
      ['datasets', 'getRun'],
      ['datasets', 'getRuns'],
      ['datasets', 'deleteRun'],
      ['scores', 'getById'],
    ];
    for (const [ns, m] of removed) {
      expect(() => (loose[ns] as Record<string, () => void>)[m]!()).toThrow(TypeError);
      expect(() => (loose[ns] as Record<string, () => void>)[m]!()).toThrow(/is not a function/);
    }
  });
});

describe('transport', () => {
  it('names the call in a timeout error', async () => {
    server.injectFault({ path: '/api/public/v2/datasets/slow', delayMs: 1000 });
    const err = await api.datasets.get('slow', {}, { timeoutInSeconds: 0.1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObsApiTimeoutError);
    expect((err as Error).message).toBe('datasets.get timed out after 0.1s');
    expect(server.requests).toHaveLength(1); // a timeout is not retried
  });

  it('uses the client timeout when the call sets none', async () => {
    const slowApi = clientFor(server, { timeout: 0.1 }).api;
    server.injectFault({ path: '/api/public/health', delayMs: 1000 });
    await expect(slowApi.health.health()).rejects.toThrow('health.health timed out after 0.1s');
  });

  it.each([500, 502, 503, 504, 408, 429])('retries a %i and then succeeds', async (status) => {
    server.injectFault({ path: '/api/public/health', status, times: 2 });
    await expect(api.health.health()).resolves.toMatchObject({ status: 'OK' });
    expect(server.requests.map((r) => r.status)).toEqual([status, status, 200]);
  });

  it('retries a network reset', async () => {
    server.injectFault({ path: '/api/public/models/m', reset: true, times: 2 });
    await expect(api.models.get('m')).resolves.toMatchObject({ ok: true });
    expect(server.requests).toHaveLength(3);
  });

  it('stops after maxRetries and throws an ObsApiError with status and body', async () => {
    server.injectFault({ path: '/api/public/models/m', status: 503, body: { message: 'down' }, times: 5 });
    const err = await api.models.get('m', {}, { maxRetries: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObsApiError);
    expect(err).toMatchObject({ statusCode: 503, body: { message: 'down' }, message: 'models.get failed with HTTP 503' });
    expect(server.requests).toHaveLength(2);
    server.clearFaults();
  });

  it('reports a network failure after retries as an ObsApiError without status', async () => {
    server.injectFault({ path: '/api/public/models/m', reset: true, times: 5 });
    const err = await api.models.get('m', {}, { maxRetries: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObsApiError);
    expect((err as ObsApiError).statusCode).toBeUndefined();
    expect((err as Error).message).toMatch(/^models\.get failed: /);
    expect(server.requests).toHaveLength(3);
    server.clearFaults();
  });

  it('does not retry other 4xx', async () => {
    server.injectFault({ path: '/api/public/models/m', status: 404, body: 'missing' });
    const err = await api.models.get('m').catch((e: unknown) => e);
    expect(err).toMatchObject({ statusCode: 404, body: 'missing' });
    expect(server.requests).toHaveLength(1);
  });

  it('honours Retry-After', async () => {
    const timed = timedFetch();
    const api2 = clientFor(server, { fetch: timed.fetch }).api;
    server.injectFault({ path: '/api/public/health', status: 429, retryAfter: 1 });
    await api2.health.health();
    expect(timed.sentAt[1]!.at - timed.sentAt[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('an abortSignal stops the call, including a retry wait', async () => {
    server.injectFault({ path: '/api/public/health', status: 429, retryAfter: 30 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(api.health.health({}, { abortSignal: controller.signal })).rejects.toThrow('stop');
    server.clearFaults();
  });

  it('a 401 is an ObsApiError', async () => {
    const wrong = clientFor(server, { secretKey: 'wrong' }).api;
    await expect(wrong.projects.get()).rejects.toMatchObject({ statusCode: 401 });
  });
});
