/**
 * Whole processes on Node.js 22, resolving the built package like a user's app: a CommonJS app
 * (`require('@obs/express')`, zero config from OBS_* env) on Express 4 and 5, and shutdowns
 * (server.close, SIGTERM) that must not lose the span of a request handled just before.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { rootOf } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
/** Node 22 from the `node` devDependency; the test runner's own Node otherwise. */
const node = existsSync(join(repoRoot, 'node_modules/.bin/node')) ? join(repoRoot, 'node_modules/.bin/node') : process.execPath;

const obs = setupObsServer();
beforeAll(async () => {
  // The child processes load the built package, as a user's app would: build it from src first,
  // as `npm run build` does (tsc, then the one-file bundle).
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(node, [tsc, '-p', join(here, '../tsconfig.json')], { cwd: join(here, '..'), stdio: 'pipe' });
  execFileSync(node, [join(repoRoot, 'scripts/bundle-entry.mjs')], { cwd: join(here, '..'), stdio: 'pipe' });
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: { traceId: string; body?: unknown; unmatched?: string };
  stderr: string;
}

function run(script: string, args: string[]): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = execFile(
      node,
      [join(here, 'fixtures', script), ...args],
      {
        cwd: here,
        timeout: 20_000,
        env: {
          ...process.env,
          ...obs.server.env,
          // Nothing leaves on a timer: only the shutdown path can deliver the span.
          OBS_FLUSH_INTERVAL: '60',
          OBS_LOG_LEVEL: 'error',
        },
      },
      (err, stdout, stderr) => {
        const line = stdout.split('\n').find((l) => l.startsWith('{'));
        if (!line) {
          reject(new Error(`no output (${String(err)}): ${stderr}`));
          return;
        }
        resolvePromise({ code: child.exitCode, signal: child.signalCode, out: JSON.parse(line), stderr });
      },
    );
  });
}

/** The trace's spans as the server has them now, waiting briefly in case the last export is in flight. */
async function delivered(traceId: string): Promise<{ root: DecodedSpan; spans: DecodedSpan[] }> {
  const spans = await obs.server.waitFor(() => (rootOf(obs.server.spansByTrace(traceId)) ? obs.server.spansByTrace(traceId) : undefined), {
    timeoutMs: 2000,
    description: `root of ${traceId}`,
  });
  return { root: rootOf(spans)!, spans };
}

describe('a CommonJS app', () => {
  it.each(['express', 'express4'])('traces requests with require("@obs/express") on %s', async (pkg) => {
    const { code, out } = await run('commonjs-app.cjs', [pkg]);
    expect(code).toBe(0);
    expect(out.body).toEqual({ id: '7', got: { hello: 'commonjs' } });
    expect(out.unmatched).toBe('<unmatched>');
    const { root } = await delivered(out.traceId);
    expect(root.name).toBe('POST /cjs/:id');
    expect(root.attributes['user.id']).toBe('cjs-user');
    expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({ hello: 'commonjs' });
  });
});

describe('shutdown', () => {
  it('server.close(() => process.exit(0)) flushes the spans of requests handled before the close', async () => {
    const { code, out } = await run('shutdown-app.mjs', ['close']);
    expect(code).toBe(0);
    const { root } = await delivered(out.traceId);
    expect(root.name).toBe('GET /work/:id');
  });

  it("SIGTERM handled by the app's own server.close + exit loses nothing", async () => {
    const { code, out } = await run('shutdown-app.mjs', ['sigterm-handled']);
    expect(code).toBe(0);
    const { root } = await delivered(out.traceId);
    expect(root.name).toBe('GET /work/:id');
  });

  it('SIGTERM nobody handles flushes, then ends the process by the signal', async () => {
    const { signal, out } = await run('shutdown-app.mjs', ['sigterm']);
    expect(signal).toBe('SIGTERM');
    const { root } = await delivered(out.traceId);
    expect(root.name).toBe('GET /work/:id');
  });
});
