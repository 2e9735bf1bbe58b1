/**
 * Retention (issue 45): `--retain <days>` deletes whole traces that started before the cut-off,
 * `--max-size <MB>` deletes the oldest whole traces while the data takes more than the limit
 * (down to 90% of it), each pass says what it did in one line, and vacuums the file when the
 * deletions left a quarter of it free. A data directory is kept under 1024 MB unless told.
 */
import { statSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startObsServer } from '../src/index.js';
import { retentionPolicy } from '../src/retention/policy.js';
import { Retention } from '../src/retention/pruner.js';
import { createMemoryStores } from '../src/stores/memory/index.js';
import { createSqliteStores } from '../src/stores/sqlite/index.js';
import { loadSqlite } from '../src/stores/sqlite/load.js';
import type { ObsStores } from '../src/stores/types.js';
import { CLI_BUILT, otlpJson, startCli } from './cli-process.js';
import { basic } from './helpers.js';
import { span } from './store-contract.js';

const root = mkdtempSync(path.join(tmpdir(), 'obs-retention-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 28, 12);

function sqliteStores(name: string): ObsStores {
  const sqlite = loadSqlite();
  if (sqlite instanceof Error) throw sqlite;
  return createSqliteStores(sqlite, path.join(root, name), () => {});
}

/** Trace `i` started `agoMs` before NOW: two spans, ~2 KB of input each. */
function trace(i: number, agoMs: number) {
  const traceId = (i + 1).toString(16).padStart(32, '0');
  const start = NOW - agoMs;
  const input = `trace ${i} ${'lorem ipsum '.repeat(170)}`;
  return [
    span(traceId, `${traceId.slice(16)}`, { start, end: start + 5, attributes: { 'obs.observation.input': input } }),
    span(traceId, `${traceId.slice(0, 15)}f`, {
      parent: traceId.slice(16),
      start: start + 1,
      end: start + 4,
      attributes: { 'obs.observation.output': input },
    }),
  ];
}

describe('a retention pass', () => {
  it('--retain: whole traces that started before the cut-off go, scores and media with them; one line', async () => {
    for (const stores of [createMemoryStores(), sqliteStores('days')]) {
      const lines: string[] = [];
      stores.spans.add([...trace(0, 3 * DAY), ...trace(1, 2.5 * DAY), ...trace(2, 1.5 * DAY), ...trace(3, 0.5 * DAY)]);
      stores.scores.add([{ id: 's0', traceId: trace(0, 0)[0]!.traceId, name: 'q', value: 1, receivedAt: 1 }]);
      const retention = new Retention(
        stores,
        retentionPolicy({ days: 2, maxSizeMb: 0 }, true),
        (l) => lines.push(l),
        () => NOW,
      );
      expect(await retention.pass()).toMatchObject({ traces: 2, spans: 4 });
      expect(stores.traces.list({}).data.map((t) => t.id)).toEqual([trace(3, 0)[0]!.traceId, trace(2, 0)[0]!.traceId]);
      expect(stores.scores.all()).toEqual([]);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^retention: deleted 2 traces \(4 spans\): started before 2026-11-26T12:00:00\.000Z \(--retain 2 days\)/);
      expect(await retention.pass()).toMatchObject({ traces: 0 });
      expect(lines).toHaveLength(1); // a pass that deletes nothing says nothing
      stores.close();
    }
  });

  it('--max-size: the oldest traces go until the data takes 90% of the limit; the file is vacuumed when a quarter of it was freed', async () => {
    const stores = sqliteStores('size');
    for (let batch = 0; batch < 10; batch++) {
      const spans = [];
      for (let i = batch * 100; i < (batch + 1) * 100; i++) spans.push(...trace(i, (1000 - i) * 60_000)); // trace 0 the oldest
      stores.spans.add(spans);
    }
    const storage = stores.storage!;
    const before = storage.fileBytes();
    expect(before).toBeGreaterThan(4 * 1024 * 1024);
    const lines: string[] = [];
    const limit = 2; // MB
    const retention = new Retention(
      stores,
      retentionPolicy({ maxSizeMb: limit }, true),
      (l) => lines.push(l),
      () => NOW,
    );
    const result = await retention.pass();
    expect(storage.usedBytes()).toBeLessThanOrEqual(limit * 1024 * 1024 * 0.9);
    expect(storage.fileBytes()).toBeLessThan(limit * 1024 * 1024);
    expect(result.file).toMatchObject({ before, vacuumed: true });
    // Whole traces, oldest first: what is left is the newest, each with both its spans.
    const left = stores.traces.list({}).data;
    expect(left.length).toBe(1000 - result.traces);
    expect(left.every((t) => t.observations === 2)).toBe(true);
    const oldestLeft = Math.min(...left.map((t) => t.start));
    expect(oldestLeft).toBe(NOW - (1000 - result.traces) * 60_000);
    expect(result.spans).toBe(result.traces * 2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^retention: deleted ${result.traces} traces \\(${result.spans.toLocaleString('en-US')} spans\\): the oldest, to keep the data under 2\\.0 MB \\(--max-size\\); vacuumed the file from [\\d.]+ MB to [\\d.]+ MB in [\\d.]+ s$`,
      ),
    );
    stores.close();
  });

  it('a data directory is kept under 1024 MB unless told; 0 is no limit; memory has no size limit', () => {
    expect(retentionPolicy(undefined, true)).toEqual({ maxBytes: 1024 * 1024 * 1024 });
    expect(retentionPolicy({ maxSizeMb: 0 }, true)).toEqual({});
    expect(retentionPolicy({ days: 7 }, false)).toEqual({ maxAgeMs: 7 * DAY });
    expect(() => retentionPolicy({ days: 0 }, true)).toThrow('retention.days must be a positive number');
  });
});

describe.skipIf(!CLI_BUILT)('the CLI', () => {
  it('--retain and --max-size at start: one line per pass, what is left the newest traces, the file smaller', async () => {
    const data = path.join(root, 'cli');
    const server = await startObsServer({ data, quiet: true, retention: { maxSizeMb: 0 } });
    const auth = basic(server.publicKey, server.secretKey);
    const post = (body: string) =>
      fetch(`${server.url}/api/public/otel/v1/traces`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body,
      });
    const now = BigInt(Date.now()) * 1_000_000n;
    expect((await post(otlpJson(0, 500, 3000, now - 10n * BigInt(DAY) * 1_000_000n))).status).toBe(200); // ten days ago
    for (let i = 500; i < 2000; i += 500) expect((await post(otlpJson(i, 500, 3000, now))).status).toBe(200);
    await server.close();
    const file = path.join(data, 'obs-local.sqlite');
    const before = statSync(file).size;

    const cli = await startCli(['--data', data, '--retain', '7', '--max-size', '3']);
    try {
      const deadline = Date.now() + 10_000;
      while (!cli.output().stderr.includes('retention:') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const list = (await (await fetch(`${cli.url}/viewer-api/traces?limit=1`)).json()) as { total: number };
      expect(list.total).toBeGreaterThan(0);
      expect(list.total).toBeLessThan(1500);
    } finally {
      await cli.stop();
    }
    const lines = cli.output().stderr.trim().split('\n');
    expect(lines, cli.output().stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[obs-local-server\] retention: deleted [\d,]+ traces \([\d,]+ spans\): started before .+ \(--retain 7 days\); the oldest, to keep the data under 3\.0 MB \(--max-size\); vacuumed the file from [\d.]+ MB to [\d.]+ MB in [\d.]+ s$/,
    );
    expect(statSync(file).size).toBeLessThan(Math.min(before, 3 * 1024 * 1024));
    expect(cli.output().stdout).toContain('the oldest traces go past 3 MB, and after 7 days');
  });
});
