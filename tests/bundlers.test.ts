/**
 * obs through the bundlers a serverless app ships with, each run once on a small app and read
 * back from the local obs server: esbuild's one-file Lambda bundle (what AWS CDK's NodejsFunction
 * and SAM build) and wrangler's Worker bundle (`wrangler deploy --dry-run`, run in workerd). Each
 * bundle: no warning that names obs, one copy of `@obs/core` and of `@opentelemetry/api`, and the
 * trace arrives. (Next.js with Turbopack and webpack is checked on the builds packages/next and
 * tests/next-foreign.test.ts make; Vite SSR on the React Router, SvelteKit and Nuxt suites' builds.)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setupObsServer } from '@obs/local-server/testing';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCopies } from './support/bundle-copies.js';
import { appEnv, runNode } from './support/framework-app.js';

const here = join(dirname(fileURLToPath(import.meta.url)), 'bundlers');
const local = setupObsServer();
let out = '';

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'obs-bundlers-'));
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('esbuild: a Lambda bundle', () => {
  it('bundles with no warning, one copy of each, and the invocation traces', async () => {
    const result = await build({
      entryPoints: [join(here, 'lambda-handler.mjs')],
      outfile: join(out, 'lambda/index.mjs'),
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'esm',
      logLevel: 'silent',
    });
    expect(result.warnings.map((w) => w.text)).toEqual([]);
    const code = readFileSync(join(out, 'lambda/index.mjs'), 'utf8');
    expect(bundleCopies([code])).toEqual({ core: 1, api: 1 });
    // Nothing obs needs at run time is left for node_modules to provide.
    expect(code).not.toMatch(/from\s*["'](@obs|@opentelemetry)\//);

    const invoke = `import(${JSON.stringify(pathToFileURL(join(out, 'lambda/index.mjs')).href)}).then(async (m) => console.log(JSON.stringify(await m.handler({ question: 'ping' }))))`;
    const printed = await runNode(['--input-type=module', '-e', invoke], out, appEnv(local.server.env));
    expect(JSON.parse(printed.trim().split('\n').at(-1)!)).toEqual({ statusCode: 200, body: 'You asked: ping' });
    // Flushed before the handler returned: the span is on the server already.
    const spans = local.server.spans();
    expect(spans.map((s) => s.name)).toEqual(['lambda handler']);
    expect(JSON.parse(String(spans[0]!.attributes['obs.observation.input']))).toEqual({ question: 'ping' });
  });
});

describe('wrangler: a Worker bundle', () => {
  let mf: Miniflare | undefined;
  afterAll(async () => mf?.dispose());

  it('bundles with no warning from obs, one copy of each, the edge door of core, and the request traces on workerd', async () => {
    const wrangler = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin/wrangler.js');
    const log = await runNode([wrangler, 'deploy', '--dry-run', '--outdir', join(out, 'worker')], here, {
      ...appEnv(),
      WRANGLER_SEND_METRICS: 'false',
      CLOUDFLARE_API_TOKEN: '',
    });
    expect(log.split('\n').filter((l) => /obs/.test(l) && /warn|error|▲/i.test(l))).toEqual([]);
    const file = readdirSync(join(out, 'worker')).find((f) => f.endsWith('.js'))!;
    const code = readFileSync(join(out, 'worker', file), 'utf8');
    expect(bundleCopies([code])).toEqual({ core: 1, api: 1 });
    // The edge door: the Node.js module resolution of the AI SDK stand-in is not in a Worker.
    expect(code).not.toContain('process.argv');

    mf = new Miniflare({
      modules: [{ type: 'ESModule', path: 'worker.js', contents: code }],
      compatibilityDate: '2025-09-01',
      compatibilityFlags: ['nodejs_compat'],
      bindings: { ...local.server.env, OBS_FLUSH_INTERVAL: '60' },
    });
    const res = await mf.dispatchFetch('http://worker.local/chat/7?q=ping');
    expect(await res.json()).toEqual({ answer: 'You asked: ping' });
    const traceId = res.headers.get('x-obs-trace-id')!;
    const spans = await local.server.waitFor(() =>
      local.server.spansByTrace(traceId).length >= 2 ? local.server.spansByTrace(traceId) : undefined,
    );
    expect(spans.map((s) => s.name).sort()).toEqual(['GET /chat/:id', 'answer']);
  }, 60_000);
});
