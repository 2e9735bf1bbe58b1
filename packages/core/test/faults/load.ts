/**
 * Steady-rate load for the fault tests: spans (named `load-<n>`) and scores (id `score-<n>`)
 * produced at a fixed rate, and counts of what the server received by id, duplicates included.
 */
import type { ObsServer } from '@obs/local-server';
import { startObservation, type ObsClient } from '../../src/index.js';
import type { LogLine } from '../support/server.js';

export interface LoadOptions {
  spansPerSecond: number;
  scoresPerSecond?: number;
  seconds: number;
  client?: ObsClient;
  /** Runs once, this many ms after the load started (the fault). */
  at?: { ms: number; run: () => unknown };
}

const TICK_MS = 20;

/** Produces the load; resolves with how many spans and scores were produced once it stops. */
export async function steadyLoad(options: LoadOptions): Promise<{ spans: number; scores: number; faultDone: Promise<unknown> }> {
  let spans = 0;
  let scores = 0;
  let faultDone: Promise<unknown> = Promise.resolve();
  const started = Date.now();
  const total = Math.round((options.seconds * 1000) / TICK_MS);
  for (let tick = 0; tick < total; tick++) {
    const spanTarget = Math.round(((tick + 1) * TICK_MS * options.spansPerSecond) / 1000);
    while (spans < spanTarget) {
      const span = startObservation(`load-${spans++}`);
      span.update({ input: { n: spans } });
      span.end();
    }
    const scoreTarget = Math.round(((tick + 1) * TICK_MS * (options.scoresPerSecond ?? 0)) / 1000);
    while (options.client && scores < scoreTarget) {
      options.client.score.create({ id: `score-${scores++}`, traceId: 'a'.repeat(32), name: 'load', value: 1 });
    }
    if (options.at && Date.now() - started >= options.at.ms) {
      faultDone = Promise.resolve(options.at.run());
      options.at = undefined;
    }
    const next = started + (tick + 1) * TICK_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
  }
  return { spans, scores, faultDone };
}

/** How often each expected id arrived: `missing` ids never came, `duplicates` arrivals beyond the first. */
export interface Arrivals {
  unique: number;
  total: number;
  missing: number;
  duplicates: number;
}

function count(ids: string[], expected: number, prefix: string): Arrivals {
  const seen = new Map<string, number>();
  for (const id of ids) if (id.startsWith(prefix)) seen.set(id, (seen.get(id) ?? 0) + 1);
  let missing = 0;
  for (let i = 0; i < expected; i++) if (!seen.has(`${prefix}${i}`)) missing++;
  const total = [...seen.values()].reduce((a, b) => a + b, 0);
  return { unique: seen.size, total, missing, duplicates: total - seen.size };
}

export const spanArrivals = (server: ObsServer, expected: number): Arrivals =>
  count(
    server.spans().map((s) => s.name),
    expected,
    'load-',
  );
export const scoreArrivals = (server: ObsServer, expected: number): Arrivals =>
  count(
    server.scores.map((s) => String((s as { id?: unknown }).id)),
    expected,
    'score-',
  );

/** Log lines (prefix removed) at `level` or any level, matching `pattern`. */
export function lines(logs: LogLine[], pattern: RegExp, level?: LogLine['level']): string[] {
  return logs
    .filter((l) => (level === undefined || l.level === level) && pattern.test(l.message))
    .map((l) => l.message.replace(/^\[obs\] /, ''));
}

/** The outage length of the long-outage test, in seconds: `OBS_FAULT_OUTAGE_SECONDS` or 30. */
export function outageSeconds(): number {
  const n = Number(process.env.OBS_FAULT_OUTAGE_SECONDS);
  return Number.isFinite(n) && n > 0 ? n : 30;
}

/** obs's lines above debug, prefix removed, without the start-up line (`on: exporting to ...`). */
export function obsLines(logs: LogLine[]): string[] {
  return logs
    .filter((l) => l.level !== 'debug')
    .map((l) => l.message.replace(/^\[obs\] /, ''))
    .filter((m) => !m.startsWith('on: exporting to'));
}

/**
 * How many `unit` (spans, scores) the log lines say were lost: `dropped N <unit>`, `dropped N more
 * <unit>`, and a drain's `N <unit> dropped unsent, M in flight without an answer`. Equal to what
 * did not arrive when no loss went unsaid.
 */
export function accounted(logs: LogLine[], unit: string): number {
  let n = 0;
  for (const { message } of logs) {
    for (const m of message.matchAll(new RegExp(`dropped (\\d+) (?:more )?${unit}\\b`, 'g'))) n += Number(m[1]);
    for (const m of message.matchAll(new RegExp(`(\\d+) ${unit} dropped unsent, (\\d+) in flight without an answer`, 'g'))) {
      n += Number(m[1]) + Number(m[2]);
    }
  }
  return n;
}
