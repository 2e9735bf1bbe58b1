/**
 * The viewer's "add to dataset" route: a trace's root input and its (edited) output become an
 * item linked by `sourceTraceId`, in a dataset made when missing, read back through the public
 * API; and what it refuses (not JSON, no dataset name, an unknown trace, a foreign Origin), each
 * without writing anything. `sourceTraceId` on the public item route too.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startObsServer, type ObsServer } from '../src/index.js';
import { basic, makeSpans, toJson } from './helpers.js';

let obs: ObsServer;
let auth: string;
let traceId: string;

beforeAll(async () => {
  obs = await startObsServer({ quiet: true });
  auth = basic(obs.publicKey, obs.secretKey);
});
afterAll(() => obs.close());
beforeEach(async () => {
  obs.reset();
  const res = await fetch(`${obs.url}/api/public/otel/v1/traces`, {
    method: 'POST',
    body: new Uint8Array(toJson(makeSpans())),
    headers: { authorization: auth, 'content-type': 'application/json' },
  });
  expect(res.status).toBe(200);
  traceId = obs.traceIds()[0]!;
});

const addToDataset = (id: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${obs.url}/viewer-api/traces/${id}/dataset-item`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const items = async (dataset: string) =>
  (await (await fetch(`${obs.url}/api/public/dataset-items?datasetName=${dataset}`, { headers: { authorization: auth } })).json()) as {
    data: Array<Record<string, unknown>>;
  };

describe('POST /viewer-api/traces/:traceId/dataset-item', () => {
  it('adds the root input with the edited expected output, linked to the trace, making the dataset', async () => {
    const res = await addToDataset(traceId, { datasetName: 'regressions', expectedOutput: { a: 'hello, corrected' } });
    expect(res.status).toBe(200);
    const item = (await res.json()) as Record<string, unknown>;
    expect(item).toMatchObject({
      datasetName: 'regressions',
      input: { q: 'hi' },
      expectedOutput: { a: 'hello, corrected' },
      sourceTraceId: traceId,
    });
    const dataset = await fetch(`${obs.url}/api/public/v2/datasets/regressions`, { headers: { authorization: auth } });
    expect(dataset.status).toBe(200);
    expect((await items('regressions')).data).toEqual([item]);

    // Without an edit the root's output is the expected output.
    const plain = (await (await addToDataset(traceId, { datasetName: 'regressions' })).json()) as Record<string, unknown>;
    expect(plain).toMatchObject({ input: { q: 'hi' }, expectedOutput: { a: 'hello' }, sourceTraceId: traceId });
    expect((await items('regressions')).data).toHaveLength(2);
  });

  it('refuses a body that is not JSON, a missing dataset name, an unknown trace and a foreign Origin, writing nothing', async () => {
    expect((await addToDataset(traceId, 'datasetName=x', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await addToDataset(traceId, '{not json')).status).toBe(400);
    expect((await addToDataset(traceId, { expectedOutput: 1 })).status).toBe(400);
    expect((await addToDataset('f'.repeat(32), { datasetName: 'x' })).status).toBe(404);
    expect(
      (await addToDataset(traceId, { datasetName: 'x' }, { 'content-type': 'application/json', origin: 'https://attacker.example' }))
        .status,
    ).toBe(403);
    expect((await items('x')).data).toEqual([]);
    expect((await fetch(`${obs.url}/api/public/v2/datasets/x`, { headers: { authorization: auth } })).status).toBe(404);
  });
});

describe('POST /api/public/dataset-items', () => {
  it('keeps sourceTraceId and sourceObservationId, and an update without them keeps the link', async () => {
    await fetch(`${obs.url}/api/public/v2/datasets`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'd' }),
    });
    const post = (body: unknown) =>
      fetch(`${obs.url}/api/public/dataset-items`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const created = await post({ datasetName: 'd', id: 'i1', input: 1, sourceTraceId: traceId, sourceObservationId: 'abc' });
    expect(created).toMatchObject({ sourceTraceId: traceId, sourceObservationId: 'abc' });
    expect(await post({ datasetName: 'd', id: 'i1', expectedOutput: 2 })).toMatchObject({ expectedOutput: 2, sourceTraceId: traceId });
    expect(await post({ datasetName: 'd', input: 3 })).toMatchObject({ sourceTraceId: null, sourceObservationId: null });
  });
});
