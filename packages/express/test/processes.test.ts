/**
 * Whole processes on Node.js 22, resolving the built package like a user's app: a CommonJS app
 * (`require('@obs/express')`, zero config from OBS_* env) on Express 4 and 5, shutdowns
 * (server.close, SIGTERM) that must not lose the span of a request handled just before, and one
 * hostile POST that must not cost the app's other clients.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
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

/**
 * Pings `url` from `clients` clients every `everyMs` on a thread of its own (the local obs server
 * decoding spans on this test's main thread cannot delay a measurement), until told to stop;
 * posts each ping's latency in ms with the time it started, per client.
 */
const PINGER = `
const { parentPort, workerData: { url, clients, everyMs } } = require('node:worker_threads');
let stop = false;
parentPort.on('message', () => (stop = true));
for (let c = 0; c < clients; c++) {
  (async () => {
    while (!stop) {
      const started = Date.now();
      const t = performance.now();
      await (await fetch(url)).text();
      parentPort.postMessage({ client: c, started, ms: performance.now() - t });
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
}
`;

// The child app is the same under either tracer provider project: measured once, on a machine less busy.
describe.skipIf(process.env.OBS_TEST_PROVIDER === 'sdk')('one hostile POST', () => {
  it("a 1 MB question made of ';base64,' while 3 clients ping every 100 ms: every ping within 100 ms of a harmless 1 MB question's", async () => {
    const child = spawn(node, [join(here, 'fixtures', 'hostile-app.mjs')], {
      cwd: here,
      env: { ...process.env, ...obs.server.env, OBS_FLUSH_INTERVAL: '0.1', OBS_LOG_LEVEL: 'error' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      const port = await new Promise<string>((resolvePort, reject) => {
        child.stdout.on('data', (c: Buffer) => {
          const m = /LISTENING (\d+)/.exec(c.toString());
          if (m) resolvePort(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`the app exited (${code}): ${stderr}`)));
      });
      const base = `http://127.0.0.1:${port}`;
      const pings: { client: number; started: number; ms: number }[] = [];
      const pinger = new Worker(PINGER, { eval: true, workerData: { url: `${base}/ping`, clients: 3, everyMs: 100 } });
      pinger.on('message', (p) => pings.push(p));
      /** Asks `question` while the clients ping; the pings of that second and a half, per client. */
      const ask = async (question: string): Promise<number[][]> => {
        const sentAt = Date.now();
        const res = await fetch(`${base}/ask`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question }),
        });
        expect(await res.json()).toEqual({ answer: `${question.length} characters` });
        // The export (and its media scan) of both spans happens within this window.
        await obs.server.waitFor(() => (obs.server.spansByName('answer').length > 0 ? true : undefined), {
          timeoutMs: 10_000,
          description: 'the answer span',
        });
        await new Promise((r) => setTimeout(r, 1000));
        const during = pings.filter((p) => p.started >= sentAt && p.started < sentAt + 1500);
        return [0, 1, 2].map((c) => during.filter((p) => p.client === c).map((p) => p.ms));
      };
      // The first second and a first large question warm the app up (its first requests, obs's
      // first export of a large value): not measured.
      await new Promise((r) => setTimeout(r, 1000));
      await ask('y'.repeat(1024 * 1024));
      obs.server.reset();
      // The same app, the same size, nothing hostile: what a 1 MB question costs here, in this run.
      const harmless = await ask('x'.repeat(1024 * 1024));
      obs.server.reset();
      const question = ';base64,'.repeat(128 * 1024);
      expect(question.length).toBe(1024 * 1024);
      const hostile = await ask(question);
      pinger.postMessage('stop');
      await pinger.terminate();

      const report: string[] = [];
      for (let c = 0; c < 3; c++) {
        expect(hostile[c]!.length).toBeGreaterThanOrEqual(3);
        const baseline = Math.max(...harmless[c]!);
        const worst = Math.max(...hostile[c]!);
        report.push(`client ${c}: slowest ${baseline.toFixed(1)} ms with a harmless question, ${worst.toFixed(1)} ms with the hostile one`);
        expect(worst - baseline, report.join('; ')).toBeLessThan(100);
      }
      console.log(`[hostile POST] ${report.join('; ')}`);
      // The question arrived as given (cut at maxValueChars, 1,000,000, with the marker), no media asked for.
      const cut = `${question.slice(0, 1_000_000)}…[truncated by obs: ${question.length - 1_000_000} more characters]`;
      expect(obs.server.spansByName('answer')[0]!.attributes['obs.observation.input'] === cut).toBe(true);
      expect(obs.server.spansByName('POST /ask')).toHaveLength(1);
      expect(obs.server.media.asks).toHaveLength(0);
      expect(stderr).toBe('');
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
