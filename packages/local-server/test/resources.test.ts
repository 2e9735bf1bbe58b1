/**
 * The project resources of the local server over real HTTP: datasets and items (versions, a
 * page-size cap), prompts (versions, labels), experiments derived from received spans, trace
 * deletion, and the contract's limits answered with a 4xx.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startObsServer, type ObsServer } from '../src/index.js';
import { basic, experimentSpans, toProtobuf } from './helpers.js';

let obs: ObsServer;
let auth: string;

beforeAll(async () => {
  obs = await startObsServer({ quiet: true });
  auth = basic(obs.publicKey, obs.secretKey);
});
afterAll(() => obs.close());
beforeEach(() => obs.reset());

// biome-ignore lint/suspicious/noExplicitAny: the tests read the answers' fields directly
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(obs.url + path, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

describe('datasets and items', () => {
  it('creates, reads and pages items with a 100-item cap; unknown datasets are 404', async () => {
    expect((await call('GET', '/api/public/v2/datasets/none')).status).toBe(404);
    const ds = await call('POST', '/api/public/v2/datasets', { name: 'qa/set', description: 'd' });
    expect(ds.json).toMatchObject({ name: 'qa/set', description: 'd' });
    expect((await call('GET', `/api/public/v2/datasets/${encodeURIComponent('qa/set')}`)).json.id).toBe(ds.json.id);
    expect((await call('POST', '/api/public/dataset-items', { datasetName: 'nope', input: 1 })).status).toBe(404);
    for (let i = 0; i < 150; i++) await call('POST', '/api/public/dataset-items', { datasetName: 'qa/set', id: `i${i}`, input: i });
    const first = await call('GET', `/api/public/dataset-items?datasetName=${encodeURIComponent('qa/set')}&page=1&limit=500`);
    expect(first.json.data).toHaveLength(100);
    expect(first.json.meta).toEqual({ page: 1, limit: 100, totalItems: 150, totalPages: 2 });
    const second = await call('GET', `/api/public/dataset-items?datasetName=${encodeURIComponent('qa/set')}&page=2&limit=500`);
    expect(second.json.data.map((i: { id: string }) => i.id)).toEqual(Array.from({ length: 50 }, (_, i) => `i${i + 100}`));
    expect((await call('GET', '/api/public/dataset-items/i3')).json).toMatchObject({ id: 'i3', input: 3, datasetId: ds.json.id });
  });

  it('answers the items as they were at a version, updates and deletes included', async () => {
    await call('POST', '/api/public/v2/datasets', { name: 'v' });
    await call('POST', '/api/public/dataset-items', { datasetName: 'v', id: 'a', input: 'a1' });
    await call('POST', '/api/public/dataset-items', { datasetName: 'v', id: 'b', input: 'b1' });
    await new Promise((r) => setTimeout(r, 5));
    const version = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await call('POST', '/api/public/dataset-items', { datasetName: 'v', id: 'a', input: 'a2' });
    await call('DELETE', '/api/public/dataset-items/b');
    await call('POST', '/api/public/dataset-items', { datasetName: 'v', id: 'c', input: 'c1' });
    const inputs = async (q: string) =>
      (await call('GET', `/api/public/dataset-items?datasetName=v${q}`)).json.data.map((i: { input: string }) => i.input);
    expect(await inputs('')).toEqual(['a2', 'c1']);
    expect(await inputs(`&version=${encodeURIComponent(version)}`)).toEqual(['a1', 'b1']);
    expect((await call('GET', '/api/public/dataset-items?version=yesterday')).status).toBe(400);
  });
});

describe('prompts', () => {
  it('numbers versions, moves labels, keeps latest on the newest, reads by version or label', async () => {
    expect((await call('GET', '/api/public/v2/prompts/p')).status).toBe(404);
    const v1 = await call('POST', '/api/public/v2/prompts', { name: 'p', prompt: 'one', labels: ['production'] });
    const v2 = await call('POST', '/api/public/v2/prompts', { type: 'chat', name: 'p', prompt: [{ role: 'user', content: 'two' }] });
    expect([v1.json.version, v2.json.version]).toEqual([1, 2]);
    expect((await call('GET', '/api/public/v2/prompts/p')).json.version).toBe(1);
    expect((await call('GET', '/api/public/v2/prompts/p?label=latest')).json).toMatchObject({ version: 2, type: 'chat' });
    expect((await call('GET', '/api/public/v2/prompts/p?version=1')).json.labels).toEqual(['production']);
    expect((await call('PATCH', '/api/public/v2/prompts/p/versions/2', { newLabels: ['production'] })).json.labels).toEqual([
      'latest',
      'production',
    ]);
    expect((await call('GET', '/api/public/v2/prompts/p')).json.version).toBe(2);
    expect((await call('GET', '/api/public/v2/prompts/p?version=1')).json.labels).toEqual([]);
    expect((await call('PATCH', '/api/public/v2/prompts/p/versions/9', { newLabels: ['x'] })).status).toBe(404);
    expect((await call('POST', '/api/public/v2/prompts', { name: 'bad', type: 'chat', prompt: 'text' })).status).toBe(400);
  });
});

describe('experiments and trace deletion', () => {
  it('derives experiments and their items from received spans; deleting traces removes spans and scores', async () => {
    const res = await fetch(`${obs.url}/api/public/otel/v1/traces`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-protobuf' },
      body: new Uint8Array(toProtobuf(experimentSpans())),
    });
    expect(res.status).toBe(200);
    const list = await call('GET', '/api/public/experiments?datasetId=ds-1');
    expect(list.json.data.map((e: { id: string; itemCount: number }) => [e.id, e.itemCount])).toEqual([
      ['exp-1', 2],
      ['exp-2', 1],
    ]);
    expect(list.json.data[0].metadata).toEqual({ m: 1 });
    const page1 = await call('GET', '/api/public/experiment-items?experimentName=run%20exp-1&limit=1');
    expect(page1.json.data).toHaveLength(1);
    expect(page1.json.meta.cursor).toBe('1');
    const page2 = await call('GET', `/api/public/experiment-items?experimentName=run%20exp-1&limit=1&cursor=${page1.json.meta.cursor}`);
    expect(page2.json.meta.cursor).toBeNull();
    const traceIds = [page1.json.data[0].traceId, page2.json.data[0].traceId];
    expect(page1.json.data[0]).toMatchObject({ experimentId: 'exp-1', datasetItemVersion: '2026-01-01T00:00:00.000Z' });

    await call('POST', '/api/public/scores', [
      { traceId: traceIds[0], name: 's', value: 1 },
      { datasetRunId: 'exp-1', name: 'run', value: 1 },
    ]);
    expect((await call('GET', '/api/public/v3/scores?datasetRunId=exp-1')).json.data.map((s: { name: string }) => s.name)).toEqual(['run']);
    expect((await call('DELETE', '/api/public/traces', { traceIds })).status).toBe(200);
    expect((await call('GET', '/api/public/experiment-items?experimentName=run%20exp-1')).json.data).toEqual([]);
    expect(
      obs
        .spans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['experiment-item-run', 'unrelated']);
    expect(obs.scores.map((s) => s['name'])).toEqual(['run']);
  });

  it('refuses more than 1,000 trace ids or 100 scores per request with a 400', async () => {
    const del = await call('DELETE', '/api/public/traces', { traceIds: Array.from({ length: 1001 }, (_, i) => `t${i}`) });
    expect(del).toEqual({ status: 400, json: { message: 'at most 1000 traceIds per request, got 1001' } });
    expect((await call('DELETE', '/api/public/traces', { traceIds: 'x' })).status).toBe(400);
    const scores = await call(
      'POST',
      '/api/public/scores',
      Array.from({ length: 101 }, (_, i) => ({ traceId: 't', name: `s${i}`, value: 1 })),
    );
    expect(scores).toEqual({ status: 400, json: { message: 'at most 100 scores per request, got 101' } });
    expect(obs.scores).toHaveLength(0);
    expect(
      (
        await call(
          'POST',
          '/api/public/scores',
          Array.from({ length: 100 }, (_, i) => ({ traceId: 't', name: `s${i}`, value: 1 })),
        )
      ).status,
    ).toBe(200);
  });
});
