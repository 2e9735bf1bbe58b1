import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { ObsBrowserClient } from '../../src/browser/index.js';
import { messages, TRACE_ID } from '../client/helpers.js';
import { CLIENT_KEYS, type LogLine, routeLogsInto } from '../support/server.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const ENTRY = resolve(SRC, 'browser/index.ts');

/** Every module specifier of a source file: static, re-export and dynamic imports. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) found.push(m[1]!);
  return found;
}

/** The browser entry and every source file it reaches, type-only imports included. */
function importGraph(entry: string): Map<string, { source: string; imports: string[] }> {
  const graph = new Map<string, { source: string; imports: string[] }>();
  const visit = (file: string): void => {
    if (graph.has(file)) return;
    const source = readFileSync(file, 'utf8');
    const imports = specifiers(source);
    graph.set(file, { source, imports });
    for (const spec of imports) if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
  };
  visit(entry);
  return graph;
}

/** Source without comments, so a comment mentioning Buffer does not count. */
function code(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('@obs/core/browser import graph', () => {
  const graph = importGraph(ENTRY);
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

  it('walks the real graph', () => {
    expect(graph.size).toBeGreaterThan(5);
    expect([...graph.keys()].some((f) => f.endsWith('client/scores/validate.ts'))).toBe(true);
  });

  it.each([...graph.keys()].map((f) => [f.slice(SRC.length + 1)]))('%s imports no Node built-in and no package', (file) => {
    const { imports } = graph.get(resolve(SRC, file))!;
    for (const spec of imports) {
      expect(spec.startsWith('node:'), spec).toBe(false);
      expect(builtins.has(spec), spec).toBe(false);
      expect(spec.startsWith('.'), `${spec}: a bare import may pull in Node code`).toBe(true);
    }
  });

  it.each([...graph.keys()].map((f) => [f.slice(SRC.length + 1)]))('%s uses no Buffer, process or require', (file) => {
    const source = code(graph.get(resolve(SRC, file))!.source);
    expect(source).not.toMatch(/\bBuffer\b/);
    expect(source).not.toMatch(/\brequire\s*\(/);
    expect(source).not.toMatch(/(?<![.\w])process\./);
  });

  it('the test would catch the server config module (it uses Buffer)', () => {
    expect(code(readFileSync(resolve(SRC, 'config/connection.ts'), 'utf8'))).toMatch(/\bBuffer\b/);
    expect([...graph.keys()].some((f) => f.endsWith('/config/connection.ts'))).toBe(false);
  });
});

const logs: LogLine[] = [];
const { server } = await setupObsServer({ ...CLIENT_KEYS, beforeEach: () => routeLogsInto(logs) }).ready;

describe('ObsBrowserClient against the local server', () => {
  it('posts scores with the public key only', async () => {
    const client = new ObsBrowserClient({ publicKey: server.publicKey, baseUrl: server.url });
    await client.score({ traceId: TRACE_ID, name: 'thumbs', value: 1, dataType: 'BOOLEAN', comment: 'nice' });

    expect(server.scoreRequests).toHaveLength(1);
    const req = server.scoreRequests[0]!;
    expect(req.auth).toBe('public-only');
    expect(req.headers.authorization).toBe(`Basic ${btoa(`${server.publicKey}:`)}`);
    expect(JSON.stringify(req.headers)).not.toContain(server.secretKey);
    expect(req.status).toBe(200);
    expect(server.scores[0]).toMatchObject({ traceId: TRACE_ID, name: 'thumbs', value: 1, dataType: 'BOOLEAN', comment: 'nice' });
    expect(server.scores[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(server.scores[0]!.timestamp as string)).not.toBeNaN();
  });

  it('sends the scores of one tick in one request, at most 100 each', async () => {
    const client = new ObsBrowserClient({ publicKey: server.publicKey, baseUrl: `${server.url}/` });
    for (let i = 0; i < 120; i++) void client.score({ traceId: TRACE_ID, name: 'n', value: i });
    await client.score.flush();
    expect(server.scoreRequests.map((r) => (r.json as unknown[]).length)).toEqual([100, 20]);
    expect(server.scores).toHaveLength(120);
  });

  it('retries a 503 and logs a 207 like the server client', async () => {
    const client = new ObsBrowserClient({ publicKey: server.publicKey, baseUrl: server.url, backoff: { initialDelayMs: 5 } });
    server.injectFault({ path: '/api/public/scores', status: 503 });
    server.rejectScores((s: { name: string }) => (s.name === 'bad' ? 'no' : undefined));
    void client.score({ traceId: TRACE_ID, name: 'bad', value: 1 });
    await client.score({ traceId: TRACE_ID, name: 'good', value: 1 });
    expect(server.scoreRequests.map((r) => r.status)).toEqual([503, 207]);
    expect(messages(logs).filter((m) => m.startsWith('Obs rejected'))).toEqual([
      expect.stringMatching(/^Obs rejected 1 of 2 scores in batch: /),
    ]);
  });

  it('keeps a given id, and honours maxRetries and timeout', async () => {
    const client = new ObsBrowserClient({ publicKey: server.publicKey, baseUrl: server.url, maxRetries: 0, timeout: 0.1 });
    server.injectFault({ path: '/api/public/scores', status: 503, times: 1 });
    await client.score({ id: 'mine', traceId: TRACE_ID, name: 'lost', value: 1 });
    expect(server.scoreRequests.map((r) => r.status)).toEqual([503]);
    expect((server.scoreRequests[0]!.json as Array<{ id: string }>)[0]!.id).toBe('mine');
    expect(messages(logs, 'error')).toEqual(['dropped 1 scores: HTTP 503']);

    server.injectFault({ path: '/api/public/scores', delayMs: 500, times: 1 });
    await client.score({ traceId: TRACE_ID, name: 'slow', value: 1 });
    expect(messages(logs, 'error').at(-1)).toMatch(/^dropped 1 scores: timeout \(/);
  });

  it('drops invalid scores with an error log, never throwing or rejecting', async () => {
    const client = new ObsBrowserClient({ publicKey: server.publicKey, baseUrl: server.url });
    for (const bad of [null, 'x', { name: '', value: 1, traceId: TRACE_ID }, { name: 'x', value: NaN, traceId: TRACE_ID }]) {
      await expect(client.score(bad as never)).resolves.toBeUndefined();
    }
    await client.score.flush();
    expect(server.scoreRequests).toHaveLength(0);
    expect(messages(logs, 'error')).toHaveLength(4);
  });

  it('without publicKey or baseUrl: one warning, no-op', async () => {
    const client = new ObsBrowserClient({ publicKey: '', baseUrl: server.url });
    new ObsBrowserClient(undefined as never);
    await expect(client.score({ traceId: TRACE_ID, name: 'x', value: 1 })).resolves.toBeUndefined();
    await expect(client.score.flush()).resolves.toBeUndefined();
    expect(messages(logs, 'warn')).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
  });
});
