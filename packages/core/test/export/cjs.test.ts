/**
 * A CommonJS consumer on Node.js 22: `require('@obs/core')` (the built package, resolved through
 * node_modules like a user's app would) can init, start observations and export to a real local.server.
 */
import { execFile } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { only, PACKAGE_VERSION, TRACING_KEYS, traceRequests } from '../tracing/harness.js';
import { setupObsServer } from '@obs/local-server/testing';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const coreDir = resolve(here, '../..');
const repoRoot = resolve(coreDir, '../..');
/** Node 22 from the `node` devDependency; the test runner's own Node otherwise. */
const node = existsSync(join(repoRoot, 'node_modules/.bin/node')) ? join(repoRoot, 'node_modules/.bin/node') : process.execPath;
// Inside the repository, so `require('@obs/core')` resolves through node_modules to packages/core.
const script = join(here, `.cjs-consumer-${process.pid}.cjs`);

const CONSUMER = `
'use strict';
const obs = require('@obs/core');
const assert = require('node:assert/strict');

(async () => {
  assert.equal(typeof obs.initObs, 'function');
  assert.equal(obs.setActiveTraceIO, undefined);
  assert.equal(obs.createTraceAttributes, undefined);
  const handle = obs.initObs({ flushOnExit: false, flushInterval: 0.05, release: 'cjs-release' });
  assert.equal(obs.initObs(), handle);
  const result = await obs.startActiveObservation('cjs-root', async (root) => {
    root.update({ input: { from: 'commonjs' } });
    await new Promise((r) => setTimeout(r, 5));
    await obs.propagateAttributes({ userId: 'cjs-user', tags: ['cjs'] }, async () => {
      obs.startObservation('cjs-generation', { model: 'cjs-model', usageDetails: { total: 3 } }, { asType: 'generation' }).end();
    });
    const traced = obs.observe(async function cjsObserved(x) { return x * 2; });
    assert.equal(await traced(21), 42);
    return { traceId: root.traceId, rootId: root.id, activeTraceId: obs.getActiveTraceId() };
  });
  await handle.flush();
  await handle.shutdown();
  process.stdout.write(JSON.stringify({ mode: handle.mode, node: process.version, ...result }));
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
`;

/** A script that never flushes: the spans must still leave on exit (flushOnExit default). */
const FORGETFUL = `
'use strict';
const obs = require('@obs/core');
obs.initObs({ flushInterval: 60 });
obs.startActiveObservation('exit-root', () => {
  obs.startObservation('exit-child').end();
});
`;
const forgetful = join(here, `.cjs-forgetful-${process.pid}.cjs`);

const local = setupObsServer({ ...TRACING_KEYS, reset: false });

// dist/ is built once for every test by test/support/build-dist.ts (vitest's global set-up).
beforeAll(() => {
  writeFileSync(script, CONSUMER);
  writeFileSync(forgetful, FORGETFUL);
});

afterAll(async () => {
  rmSync(script, { force: true });
  rmSync(forgetful, { force: true });
});

describe('CommonJS consumer', () => {
  it('require("@obs/core") on Node 22 inits, traces and exports to the local server', async () => {
    expect(existsSync(join(coreDir, 'dist/index.js'))).toBe(true);
    const { stdout } = await run(node, [script], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...local.server.env,
      },
      timeout: 20_000,
    });
    const out = JSON.parse(stdout) as { mode: string; node: string; traceId: string; rootId: string; activeTraceId: string };
    expect(Number(out.node.slice(1).split('.')[0])).toBeGreaterThanOrEqual(22);
    expect(out.mode).toBe('registered');
    expect(out.activeTraceId).toBe(out.traceId);

    const root = only(local.server, 'cjs-root');
    const gen = only(local.server, 'cjs-generation');
    const observed = only(local.server, 'cjsObserved');
    expect(root.traceId).toBe(out.traceId);
    expect(root.spanId).toBe(out.rootId);
    expect(root.attributes['obs.observation.input']).toBe('{"from":"commonjs"}');
    expect(root.attributes['obs.release']).toBe('cjs-release');
    expect(gen.parentSpanId).toBe(root.spanId);
    expect(gen.attributes).toMatchObject({
      'obs.observation.type': 'generation',
      'obs.observation.model.name': 'cjs-model',
      'user.id': 'cjs-user',
      'obs.trace.tags': ['cjs'],
    });
    expect(observed.parentSpanId).toBe(root.spanId);
    expect(observed.attributes['obs.observation.output']).toBe('42');
    const req = traceRequests(local.server)[0]!;
    expect(req.headers['x-obs-sdk-version']).toBe(PACKAGE_VERSION);
    expect(req.headers['content-encoding']).toBe('gzip');
  });

  it('a script that never calls flush still delivers its spans when the process exits', async () => {
    local.server.reset();
    await run(node, [forgetful], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        ...local.server.env,
      },
      timeout: 20_000,
    });
    expect(only(local.server, 'exit-child').parentSpanId).toBe(only(local.server, 'exit-root').spanId);
  });
});
