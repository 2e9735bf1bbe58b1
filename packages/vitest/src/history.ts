/**
 * The previous run's means, per suite, in `__obs_cache__/<test file>.runs.json` beside the test
 * file. Written after every complete run, only when a mean or the item count changed (an unchanged
 * run leaves the file as it is, so a committed baseline does not churn); read before the next
 * run's thresholds are checked, so a failure can say where the score was before.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CACHE_DIR } from './cache/cassette.js';
import type { Means } from './scores.js';

/** One suite's last complete run. */
export interface RunRecord {
  items: number;
  means: Record<string, number>;
}

type HistoryFile = Record<string, RunRecord>;

/** The history file of a test file. */
export function historyPath(testFile: string): string {
  return join(dirname(testFile), CACHE_DIR, `${basename(testFile)}.runs.json`);
}

/** The last run of `suite` recorded for this test file, if any. */
export function previousRun(testFile: string, suite: string): RunRecord | undefined {
  return read(historyPath(testFile))[suite];
}

/** Records this run's means for `suite` (rewrites the file only when they changed). */
export function recordRun(testFile: string, suite: string, items: number, means: Means): void {
  const file = historyPath(testFile);
  const all = read(file);
  const record: RunRecord = {
    items,
    means: Object.fromEntries(Object.entries(means).map(([k, v]) => [k, Math.round(v.mean * 1e6) / 1e6])),
  };
  if (JSON.stringify(all[suite]) === JSON.stringify(record)) return;
  all[suite] = record;
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const sorted = Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(tmp, `${JSON.stringify(sorted, null, 2)}\n`);
  renameSync(tmp, file);
}

function read(file: string): HistoryFile {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as HistoryFile) : {};
  } catch {
    // None yet, or unreadable: no previous run to compare with.
    return {};
  }
}
