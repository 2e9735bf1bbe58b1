/**
 * `node:http` is looked up at the first POST, not at start: a runtime that refuses the lookup
 * (a sandbox whose `process.getBuiltinModule` throws) sends through `fetch` instead of failing
 * every POST as a network error. Counted at a real server.
 */
import { startObsServer } from '@obs/local-server';
import { afterEach, expect, it, vi } from 'vitest';

const proc = process as { getBuiltinModule?: (id: string) => unknown };
const original = proc.getBuiltinModule;

afterEach(() => {
  proc.getBuiltinModule = original;
  vi.resetModules();
});

it('a refused node:http lookup at the first POST falls back to fetch: the batch arrives', async () => {
  const server = await startObsServer({ quiet: true });
  try {
    vi.resetModules();
    const { httpPost } = await import('../../src/delivery/node-post.js');
    const asked: string[] = [];
    proc.getBuiltinModule = (id: string) => {
      asked.push(id);
      throw new Error('refused by the sandbox');
    };
    const post = httpPost(`${server.url}/api/public/scores`, {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${server.publicKey}:${server.secretKey}`).toString('base64')}`,
    });
    const body = new TextEncoder().encode(JSON.stringify([{ id: 's-refused', traceId: 'a'.repeat(32), name: 'n', value: 1 }]));
    const res = await post(body, 5_000, new AbortController().signal);
    expect(asked).toEqual(['node:http']);
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    expect(server.scores.map((s) => s.id)).toEqual(['s-refused']);
  } finally {
    await server.close();
  }
});
