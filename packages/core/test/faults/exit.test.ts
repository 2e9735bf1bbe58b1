/**
 * The app's life cycle is the app's: a script whose own work is done exits promptly even while
 * the server is down (no obs timer, socket or retry holds it), after the exit flush tried once
 * and said in one line what it could not send; SIGTERM ends within `shutdownTimeout` and counts
 * the scores it gave up as well as the spans. Real child processes against the servers obs must
 * survive; the time from "work done" (or the signal) to the process's exit is asserted.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startObsServer } from '@obs/local-server';
import { afterAll, describe, expect, it } from 'vitest';
import { BAD_SERVERS, blackHole, type BadServer } from '../support/bad-servers.js';
import type { LogLine } from '../support/server.js';
import { accounted, obsLines, scoreArrivals, spanArrivals } from './load.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../../..');
const node = existsSync(join(repoRoot, 'node_modules/.bin/node')) ? join(repoRoot, 'node_modules/.bin/node') : process.execPath;
// Inside the repository, so `import '@obs/core'` resolves through node_modules to the built package.
const script = join(here, `.exit-app-${process.pid}.mjs`);

const SPANS = 200;
const SCORES = 30;

/** Makes spans (`load-<n>`) and scores (`score-<n>`), says `done`, and returns (or waits for a signal). */
const APP = `
import { initObs, startObservation } from '@obs/core';
const obs = initObs({
  ...(process.env.SHUTDOWN_TIMEOUT ? { shutdownTimeout: Number(process.env.SHUTDOWN_TIMEOUT) } : {}),
  ...(process.env.IMMEDIATE ? { exportMode: 'immediate' } : {}),
});
for (let i = 0; i < ${SPANS}; i++) startObservation('load-' + i).end();
for (let i = 0; i < ${SCORES}; i++) obs.client.score.create({ id: 'score-' + i, traceId: 'a'.repeat(32), name: 'exit', value: 1 });
if (process.env.WAIT_FOR_SIGNAL) setInterval(() => {}, 1000);
if (process.env.AWAIT_FLUSH) {
  const started = Date.now();
  await obs.flush();
  process.stdout.write('flush took ' + (Date.now() - started) + ' ms\\n');
}
process.stdout.write('done\\n');
`;

afterAll(() => rmSync(script, { force: true }));

interface Run {
  /** ms from "done" (or the signal) to the exit. */
  tookMs: number;
  /** ms from the signal to obs's line saying what it sends, when it wrote one. */
  sayingMs?: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  logs: LogLine[];
  /** What the app's own `await obs.flush()` took, when it made one. */
  flushMs?: number;
}

/**
 * Runs the app against `baseUrl`; with `signal`, sends it once the app said `done`, and with
 * `again`, once more when obs said what it is sending.
 */
async function run(baseUrl: string, env: Record<string, string> = {}, signal?: NodeJS.Signals, again = false): Promise<Run> {
  writeFileSync(script, APP);
  const child = spawn(node, [script], {
    env: { ...process.env, OBS_BASE_URL: baseUrl, OBS_PUBLIC_KEY: 'pk-exit', OBS_SECRET_KEY: 'sk-exit', OBS_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let doneAt = 0;
  let sayingMs: number | undefined;
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    if (signal && sayingMs === undefined && stderr.includes(`[obs] ${signal}: sending `)) {
      sayingMs = Date.now() - doneAt;
      if (again) child.kill(signal);
    }
  });
  child.stdout.on('data', (c: Buffer) => {
    if (!doneAt && c.toString().includes('done')) {
      doneAt = Date.now();
      if (signal) child.kill(signal);
    }
  });
  let flushMs: number | undefined;
  child.stdout.on('data', (c: Buffer) => {
    const m = c.toString().match(/flush took (\d+) ms/);
    if (m) flushMs = Number(m[1]);
  });
  const [code, sig] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('exit', (c, s) => r([c, s])));
  const logs = stderr
    .split('\n')
    .filter((l) => l.startsWith('[obs] '))
    .map((message) => ({ level: 'warn' as const, message }));
  return { tookMs: Date.now() - doneAt, code, signal: sig, logs, flushMs, sayingMs };
}

describe('a script whose work is done', () => {
  it('exits at once against a healthy server, and its exit flush delivers every span and score', async () => {
    const server = await startObsServer({ quiet: true, publicKey: 'pk-exit', secretKey: 'sk-exit' });
    try {
      const r = await run(server.url);
      console.log(`[exit] a healthy server: exited ${(r.tookMs / 1000).toFixed(2)} s after its work was done`);
      expect(r.code).toBe(0);
      expect(r.tookMs).toBeLessThan(5000);
      expect(spanArrivals(server, SPANS)).toEqual({ unique: SPANS, total: SPANS, missing: 0, duplicates: 0 });
      expect(scoreArrivals(server, SCORES)).toEqual({ unique: SCORES, total: SCORES, missing: 0, duplicates: 0 });
      expect(obsLines(r.logs)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it.each(BAD_SERVERS.filter((make) => make !== blackHole).map((make) => [make.name, make] as const))(
    'exits promptly against %s (default shutdownTimeout, 15 s), counting every span and score it could not send',
    async (_name, make) => {
      const bad: BadServer = await make();
      try {
        const r = await run(bad.url);
        console.log(
          `[exit] ${bad.label}: exited ${(r.tookMs / 1000).toFixed(2)} s after its work was done; ${obsLines(r.logs).length} lines`,
        );
        expect(r.code).toBe(0);
        expect(r.tookMs).toBeLessThan(5000);
        expect(accounted(r.logs, 'spans')).toBe(SPANS);
        expect(accounted(r.logs, 'scores')).toBe(SCORES);
        // The exit flush's line, and at most the one line of what failed before it.
        expect(obsLines(r.logs).length).toBeLessThanOrEqual(3);
      } finally {
        await bad.close();
      }
    },
    20_000,
  );

  it('against a black hole, exits within shutdownTimeout + 2 s, saying what it sent without an answer', async () => {
    const bad = await blackHole();
    try {
      const r = await run(bad.url, { SHUTDOWN_TIMEOUT: '3' });
      console.log(`[exit] a black hole: exited ${(r.tookMs / 1000).toFixed(2)} s after its work was done`);
      expect(r.code).toBe(0);
      expect(r.tookMs).toBeLessThan(3000 + 2000);
      expect(obsLines(r.logs)).toEqual([
        expect.stringMatching(
          `^exit flush gave up after [\\d.]+ s: 0 spans dropped unsent, ${SPANS} in flight without an answer.*; 0 scores dropped unsent, ${SCORES} in flight without an answer`,
        ),
      ]);
    } finally {
      await bad.close();
    }
  }, 20_000);
});

describe('a short-lived function (exportMode immediate, awaiting its flush)', () => {
  it('against a black hole: its flush and the exit flush after it end within one shutdownTimeout together', async () => {
    const bad = await blackHole();
    try {
      const r = await run(bad.url, { SHUTDOWN_TIMEOUT: '2', IMMEDIATE: '1', AWAIT_FLUSH: '1' });
      console.log(
        `[exit] immediate, a black hole: flush() ${((r.flushMs ?? 0) / 1000).toFixed(2)} s, exit ${(r.tookMs / 1000).toFixed(2)} s after`,
      );
      expect(r.code).toBe(0);
      expect(r.flushMs).toBeGreaterThanOrEqual(1900);
      // The exit flush follows the flush that gave up: it shares its deadline (before: a second 2 s).
      expect((r.flushMs ?? 0) + r.tookMs).toBeLessThan(2000 + 1000);
      expect(obsLines(r.logs).filter((l) => l.startsWith('exit flush gave up after 0.'))).toHaveLength(1);
      expect(obsLines(r.logs).filter((l) => l.startsWith('flush timed out after 2.0 s'))).toHaveLength(1);
      expect(accounted(r.logs, 'spans')).toBe(SPANS);
      expect(accounted(r.logs, 'scores')).toBe(SCORES);
    } finally {
      await bad.close();
    }
  }, 20_000);
});

describe('SIGTERM', () => {
  it('against a black hole: ends by the re-raised signal within shutdownTimeout + 2 s, one line counting spans and scores', async () => {
    const bad = await blackHole();
    try {
      const r = await run(bad.url, { SHUTDOWN_TIMEOUT: '2', WAIT_FOR_SIGNAL: '1' }, 'SIGTERM');
      console.log(`[exit] SIGTERM, a black hole: ended ${(r.tookMs / 1000).toFixed(2)} s after the signal`);
      expect(r.signal ?? r.code).toBe('SIGTERM');
      expect(r.tookMs).toBeLessThan(2000 + 2000);
      const lines = obsLines(r.logs);
      expect(lines.filter((l) => l.startsWith('SIGTERM'))).toEqual([
        expect.stringMatching(
          new RegExp(
            `^SIGTERM: sending ${SPANS} spans, ${SCORES} scores to ${bad.url} before exit, for up to 1\\.\\d s; send SIGTERM again to quit now$`,
          ),
        ),
        expect.stringMatching(
          /^SIGTERM: shutdown gave up after 2\.0 s: \d+ spans dropped unsent, \d+ in flight without an answer; \d+ scores dropped unsent, \d+ in flight without an answer/,
        ),
      ]);
      expect(accounted(r.logs, 'spans')).toBe(SPANS);
      expect(accounted(r.logs, 'scores')).toBe(SCORES);
    } finally {
      await bad.close();
    }
  }, 20_000);
});

describe('Ctrl-C (SIGINT) with a healthy server', () => {
  it('delivers everything and ends by SIGINT without a word', async () => {
    const server = await startObsServer({ quiet: true, publicKey: 'pk-exit', secretKey: 'sk-exit' });
    try {
      const r = await run(server.url, { WAIT_FOR_SIGNAL: '1' }, 'SIGINT');
      expect(r.signal ?? r.code).toBe('SIGINT');
      expect(r.tookMs).toBeLessThan(2000);
      expect(spanArrivals(server, SPANS).missing).toBe(0);
      expect(scoreArrivals(server, SCORES).missing).toBe(0);
      expect(obsLines(r.logs)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('Ctrl-C (SIGINT) while the server is down', () => {
  it('says at once what it sends, where and for how long (a healthy server: nothing, see above); ends by SIGINT at the deadline with one line counting the rest', async () => {
    const bad = await blackHole();
    try {
      const r = await run(bad.url, { SHUTDOWN_TIMEOUT: '2', WAIT_FOR_SIGNAL: '1' }, 'SIGINT');
      console.log(`[exit] SIGINT, a black hole: said ${r.sayingMs} ms after the signal, ended ${(r.tookMs / 1000).toFixed(2)} s after`);
      expect(r.signal ?? r.code).toBe('SIGINT');
      // At once, as a wait goes (a drain over within 250 ms, a healthy server's, says nothing).
      expect(r.sayingMs).toBeLessThan(r.tookMs / 4);
      expect(r.tookMs).toBeLessThan(2000 + 2000);
      expect(obsLines(r.logs).filter((l) => l.startsWith('SIGINT'))).toEqual([
        expect.stringMatching(
          new RegExp(
            `^SIGINT: sending ${SPANS} spans, ${SCORES} scores to ${bad.url} before exit, for up to 1\\.\\d s; press Ctrl-C again to quit now$`,
          ),
        ),
        expect.stringMatching(/^SIGINT: shutdown gave up after 2\.0 s: /),
      ]);
      expect(accounted(r.logs, 'spans')).toBe(SPANS);
      expect(accounted(r.logs, 'scores')).toBe(SCORES);
    } finally {
      await bad.close();
    }
  }, 20_000);

  it('a second Ctrl-C quits at once, by SIGINT, with one line counting what was dropped', async () => {
    const bad = await blackHole();
    try {
      const r = await run(bad.url, { SHUTDOWN_TIMEOUT: '15', WAIT_FOR_SIGNAL: '1' }, 'SIGINT', true);
      console.log(`[exit] SIGINT twice, a black hole: ended ${(r.tookMs / 1000).toFixed(2)} s after the first`);
      expect(r.signal ?? r.code).toBe('SIGINT');
      // Well before the 15 s deadline: the second signal ended it.
      expect(r.tookMs).toBeLessThan(5000);
      expect(obsLines(r.logs).filter((l) => l.startsWith('SIGINT'))).toEqual([
        expect.stringMatching(
          new RegExp(
            `^SIGINT: sending ${SPANS} spans, ${SCORES} scores to ${bad.url} before exit, for up to 14\\.\\d s; press Ctrl-C again to quit now$`,
          ),
        ),
        expect.stringMatching(
          /^SIGINT: shutdown stopped by a second SIGINT after \d+\.\d s: \d+ spans dropped unsent, \d+ in flight without an answer.*; \d+ scores dropped unsent, \d+ in flight without an answer/,
        ),
      ]);
      expect(accounted(r.logs, 'spans')).toBe(SPANS);
      expect(accounted(r.logs, 'scores')).toBe(SCORES);
    } finally {
      await bad.close();
    }
  }, 30_000);
});
