/**
 * A disk that fills up or fails under a running server (issue 45): every write it cannot make is
 * answered 507 (full) or 503 (failing) with one log line naming the cause and the file, never a
 * stack or SQLite's "cannot rollback"; reads keep working. On a real full file system (a small
 * tmpfs, when this machine lets the test mount one) and under a file-size limit (`ulimit -f`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BUILT, type CliProcess, otlpJson, startCli } from './cli-process.js';
import { basic } from './helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'obs-full-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Mounts a tmpfs of `mb` MB at `dir`; false when this machine does not let us. */
function mountTmpfs(dir: string, mb: number): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Sends exports of 200 one-span traces until one is refused; returns the statuses. */
async function fillUp(cli: CliProcess): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 400; i++) {
    const res = await fetch(`${cli.url}/api/public/otel/v1/traces`, {
      method: 'POST',
      headers: { authorization: basic('pk-obs-local', 'sk-obs-local'), 'content-type': 'application/json' },
      body: otlpJson(i * 200, 200, 2000),
    });
    statuses.push(res.status);
    if (res.status !== 200) {
      expect(((await res.json()) as { message: string }).message).toMatch(/obs-local\.sqlite/);
      // Two more: they are answered the same, and not logged again.
      for (let j = 1; j <= 2; j++) {
        const again = await fetch(`${cli.url}/api/public/otel/v1/traces`, {
          method: 'POST',
          headers: { authorization: basic('pk-obs-local', 'sk-obs-local'), 'content-type': 'application/json' },
          body: otlpJson(1_000_000 + j * 200, 200, 2000),
        });
        statuses.push(again.status);
      }
      break;
    }
  }
  return statuses;
}

/** What the server said on stderr about it: exactly one line, no stack. */
function oneLine(cli: CliProcess): string {
  const lines = cli.output().stderr.trim().split('\n');
  expect(lines, cli.output().stderr).toHaveLength(1);
  expect(cli.output().stderr).not.toMatch(/\n\s+at |cannot rollback/);
  return lines[0]!;
}

describe.skipIf(!CLI_BUILT)('a disk that fills up under a running server', () => {
  const mount = path.join(root, 'small');
  mkdirSync(mount, { recursive: true });
  const mounted = mountTmpfs(mount, 3);
  afterAll(() => {
    if (mounted) execFileSync('umount', [mount]);
  });

  it.skipIf(!mounted)('a full file system: 507 with one line naming the cause; reads still answered', async () => {
    const cli = await startCli(['--data', path.join(mount, 'data')]);
    try {
      const statuses = await fillUp(cli);
      expect(statuses.slice(0, -3).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(-3)).toEqual([507, 507, 507]);
      expect((await fetch(`${cli.url}/viewer-api/traces`)).status).toBe(200);
    } finally {
      await cli.stop();
    }
    expect(oneLine(cli)).toMatch(/^\[obs-local-server\] cannot store in .+obs-local\.sqlite: the disk is full \(.+\): answering 507$/);
  });

  it('a file-size limit (ulimit -f): 503 with one line naming the cause; the server keeps running', async () => {
    const cli = await startCli(['--data', path.join(root, 'limited')], { shell: 'ulimit -f 6144; exec "$@"' });
    try {
      const statuses = await fillUp(cli);
      expect(statuses.slice(0, -3).every((s) => s === 200)).toBe(true);
      expect([
        [503, 503, 503],
        [507, 507, 507],
      ]).toContainEqual(statuses.slice(-3));
      expect((await fetch(`${cli.url}/viewer-api/traces`)).status).toBe(200);
      expect((await fetch(`${cli.url}/api/public/health`)).status).toBe(200);
    } finally {
      await cli.stop();
    }
    expect(oneLine(cli)).toMatch(
      /^\[obs-local-server\] cannot (read or write|store in) .+obs-local\.sqlite: the disk (failed|is full) \(.+\): answering 50[37]$/,
    );
  });
});
