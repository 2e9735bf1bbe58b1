/**
 * Next.js 16 built with webpack (`next build --webpack`, tests/next-webpack-app: instrumentation,
 * a Node.js route handler, an Edge API route), built once: no build warning names obs, each server
 * bundle holds one copy of `@obs/core` and of `@opentelemetry/api`, and both routes' traces arrive
 * from `next start`. (Turbopack, Next's default, is checked on examples/next's build in
 * packages/next's suite.)
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appEnv, obsWarnings, runNode, type ServedApp, serveApp } from './support/framework-app.js';
import { nextBundleCopies } from './support/next-copies.js';

const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), 'next-webpack-app');
const NEXT_BIN = createRequire(join(APP_DIR, 'package.json')).resolve('next/dist/bin/next');
const local = setupObsServer();
let log = '';
let app: ServedApp;

beforeAll(async () => {
  const env = { ...appEnv(), NEXT_TELEMETRY_DISABLED: '1' };
  log = await runNode([NEXT_BIN, 'build', '--webpack'], APP_DIR, env);
  app = await serveApp((port) => [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], APP_DIR, {
    ...env,
    ...local.server.env,
  });
}, 600_000);

afterAll(async () => app?.stop());

describe('next build --webpack', () => {
  it('prints no warning from obs, Edge bundle included', () => {
    expect(log).toMatch(/Compiled successfully/);
    expect(obsWarnings(log)).toEqual([]);
    expect(log).not.toMatch(/obs[^\n]*\n[^\n]*Node\.js API is used/);
  });

  it('puts one copy of @obs/core and of @opentelemetry/api in each server bundle', () => {
    const copies = nextBundleCopies(join(APP_DIR, '.next'));
    expect(copies['/app/api/chat/route.js']).toEqual({ core: 1, api: 1 });
    expect(copies['edge /api/edge']).toEqual({ core: 1, api: 1 });
    for (const [bundle, c] of Object.entries(copies)) {
      expect(c.core, bundle).toBeLessThanOrEqual(1);
      expect(c.api, bundle).toBeLessThanOrEqual(1);
    }
  });

  it('traces the Node.js route and the Edge route', async () => {
    const node = await fetch(`${app.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message":"ping"}',
    });
    expect(await node.json()).toEqual({ answer: 'You asked: ping' });
    const edge = await fetch(`${app.url}/api/edge?text=${encodeURIComponent('is it raining?')}`);
    expect(await edge.json()).toEqual({ kind: 'question' });
    for (const [res, names] of [
      [node, ['POST /api/chat', 'answer']],
      [edge, ['GET /api/edge', 'classify']],
    ] as const) {
      const traceId = res.headers.get('x-obs-trace-id')!;
      const spans = await local.server.waitFor(() =>
        local.server.spansByTrace(traceId).length >= 2 ? local.server.spansByTrace(traceId) : undefined,
      );
      expect(spans.map((s) => s.name).sort()).toEqual([...names].sort());
    }
  });
});
