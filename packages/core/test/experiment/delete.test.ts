/**
 * Deleting an experiment (contract 4.4: no endpoint; list its items by cursor, delete their
 * traces 1,000 ids at a time), `trace.deleteMultiple` chunking and the public cursor helpers,
 * checked on the requests the local obs server received.
 */
import { describe, expect, it } from 'vitest';
import { cursorItems, cursorPages } from '../../src/client/api/paging.js';
import { experimentForFile, roots } from './harness.js';

const { server, client } = await experimentForFile();

const deletes = () => server.requests.filter((r) => r.method === 'DELETE' && r.path === '/api/public/traces');

describe('trace.deleteMultiple', () => {
  it('sends 2,500 ids as consecutive requests of 1,000, 1,000 and 500, in order', async () => {
    const ids = Array.from({ length: 2500 }, (_, i) => i.toString(16).padStart(32, '0'));
    await client.api.trace.deleteMultiple({ traceIds: ids });
    expect(deletes().map((r) => (r.json as { traceIds: string[] }).traceIds.length)).toEqual([1000, 1000, 500]);
    expect(deletes().flatMap((r) => (r.json as { traceIds: string[] }).traceIds)).toEqual(ids);
    expect(deletes().map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('exactly 1,000 ids is one request; the server refuses 1,001 in one request with a 400', async () => {
    await client.api.trace.deleteMultiple({ traceIds: Array.from({ length: 1000 }, (_, i) => `t${i}`) });
    expect(deletes()).toHaveLength(1);
    const raw = await fetch(`${server.url}/api/public/traces`, {
      method: 'DELETE',
      headers: {
        authorization: `Basic ${Buffer.from(`${server.publicKey}:${server.secretKey}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ traceIds: Array.from({ length: 1001 }, (_, i) => `t${i}`) }),
    });
    expect(raw.status).toBe(400);
  });
});

describe('client.experiment.delete', () => {
  it('pages the items by cursor until it is empty and deletes 1,050 traces in chunks of 1,000, spans and scores included', async () => {
    const kept = await client.experiment.run({
      name: 'keep',
      runName: 'keep me',
      data: [{ input: 'k' }],
      task: (i) => i.input,
      evaluators: [() => ({ name: 's', value: 1 })],
    });
    const result = await client.experiment.run({
      name: 'big',
      runName: 'big run',
      data: Array.from({ length: 1050 }, (_, i) => ({ input: i })),
      task: (item) => item.input,
      evaluators: [() => ({ name: 's', value: 1 })],
    });
    expect(roots(server)).toHaveLength(1051);
    expect(server.scores).toHaveLength(1051);
    server.requests.length = 0;

    const deleted = await client.experiment.delete({ experimentName: 'big run' });
    expect(deleted.deletedTraceIds.sort()).toEqual(result.itemResults.map((r) => r.traceId).sort());

    const pages = server.requests.filter((r) => r.path === '/api/public/experiment-items');
    // The local server's default page is 50 items: 21 pages, each after the cursor of the previous one.
    expect(pages).toHaveLength(21);
    expect(pages[0]!.query).toEqual({ experimentName: 'big run' });
    expect(pages.slice(1).map((r) => r.query['cursor'])).toEqual(Array.from({ length: 20 }, (_, i) => String((i + 1) * 50)));
    expect(deletes().map((r) => (r.json as { traceIds: string[] }).traceIds.length)).toEqual([1000, 50]);

    // Only the kept run is left, with its score.
    expect(roots(server).map((s) => s.traceId)).toEqual([kept.itemResults[0]!.traceId]);
    expect(server.scores.map((s) => s['traceId'])).toEqual([kept.itemResults[0]!.traceId]);
  });

  it('rejects without a name, before any request', async () => {
    await expect(client.experiment.delete({} as never)).rejects.toThrow(/`experimentName` must be a non-empty string/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('cursorPages / cursorItems', () => {
  it('walk every page of a real endpoint until meta.cursor is empty', async () => {
    await client.experiment.run({
      name: 'paged',
      runName: 'paged run',
      data: Array.from({ length: 7 }, (_, i) => ({ input: i })),
      task: (i) => i.input,
    });
    server.requests.length = 0;
    const sizes: number[] = [];
    for await (const page of cursorPages((cursor) => client.api.experiments.listItems({ experimentName: 'paged run', cursor, limit: 3 }))) {
      sizes.push(page.data.length);
    }
    expect(sizes).toEqual([3, 3, 1]);
    const items = [];
    for await (const item of cursorItems((cursor) => client.api.experiments.listItems({ experimentName: 'paged run', cursor, limit: 3 })))
      items.push(item);
    expect(new Set(items.map((i) => i.traceId)).size).toBe(7);
    expect(server.requests).toHaveLength(6);
  });

  it('stop with an error when a server repeats a cursor, instead of looping', async () => {
    let calls = 0;
    const pages = cursorPages(async () => ({ data: [calls++], meta: { cursor: 'same' } }));
    await expect(
      (async () => {
        for await (const _ of pages) void _;
      })(),
    ).rejects.toThrow(/returned cursor "same" twice/);
    expect(calls).toBe(2);
  });
});
