/**
 * The published CLI as a daemon one leaves running (issue 45), in child processes: gzip bombs
 * sent without a key leave its resident memory where it was; trace content reaches the terminal
 * with its control characters escaped; beyond loopback the published default keys open nothing.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { hasControls } from '../src/text/terminal.js';
import { CAN_READ_RSS, CLI_BUILT, rssMb, runCliToEnd, startCli } from './cli-process.js';
import { basic } from './helpers.js';

const TRACES = '/api/public/otel/v1/traces';
const DEFAULT_AUTH = basic('pk-obs-local', 'sk-obs-local');

describe.skipIf(!CLI_BUILT || !CAN_READ_RSS)('unauthenticated gzip bombs', () => {
  it('are answered 401 from their headers and leave the RSS where it was (0.5 MB each, 512 MiB inflated)', async () => {
    const member = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const bomb = Buffer.concat(Array.from({ length: 8 }, () => member)); // concatenated gzip members: one valid body
    expect(bomb.length).toBeLessThan(600_000);
    const cli = await startCli(['--memory', '--quiet']);
    try {
      await fetch(`${cli.url}/api/public/health`);
      const before = rssMb(cli.pid);
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        for (const headers of [{}, { authorization: basic('pk-obs-local', 'wrong') }]) {
          const res = await fetch(`${cli.url}${TRACES}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', ...headers },
            body: new Uint8Array(bomb),
          }).catch((err: Error) => ({ status: `${(err.cause as { code?: string })?.code ?? err.message}` }));
          statuses.push(res.status);
        }
      }
      const after = rssMb(cli.pid);
      // A write the server closed on can reset: what matters is that nothing was let in.
      expect(
        statuses.every((s) => s === 401 || s === 'ECONNRESET' || s === 'UND_ERR_SOCKET'),
        String(statuses),
      ).toBe(true);
      expect(statuses).toContain(401);
      expect(after - before, `RSS ${before.toFixed(0)} -> ${after.toFixed(0)} MB`).toBeLessThan(20);
      expect((await fetch(`${cli.url}/viewer-api/traces`).then((r) => r.json())) as { total: number }).toMatchObject({ total: 0 });
    } finally {
      await cli.stop();
    }
  });
});

describe.skipIf(!CLI_BUILT)('the terminal', () => {
  it('shows trace content and log lines with control characters escaped: nothing clears the screen or forges a line', async () => {
    const cli = await startCli(['--memory']);
    try {
      const span = (traceId: string, name: string, attributes: Array<{ key: string; value: { stringValue: string } }> = []) => ({
        traceId,
        spanId: traceId.slice(0, 16),
        name,
        kind: 1,
        startTimeUnixNano: '1700000000000000000',
        endTimeUnixNano: '1700000000001000000',
        attributes,
      });
      const body = {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  span('a'.repeat(32), '\x1b[2J\x1b[3J\x1b[Hgone\r\n\n  Trace viewer: http://forged.example/?token=x', [
                    { key: 'obs.observation.input', value: { stringValue: '\x1b]0;title\x07\x1b[31mred\x9b31m\u202e' } },
                  ]),
                  span('b'.repeat(32), 'queue-consumer'),
                ],
              },
            ],
          },
        ],
      };
      const res = await fetch(`${cli.url}${TRACES}`, {
        method: 'POST',
        headers: { authorization: DEFAULT_AUTH, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      // A body the decoder refuses, quoting a hostile value in its message: the log line is escaped too.
      const bad = await fetch(`${cli.url}${TRACES}`, {
        method: 'POST',
        headers: { authorization: DEFAULT_AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span('\x1b[2J'.repeat(8), 'x')] }] }] }),
      });
      expect(bad.status).toBe(400);
      const deadline = Date.now() + 5000;
      while (!cli.output().stdout.includes('queue-consumer') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await cli.stop();
    }
    const { stdout, stderr } = cli.output();
    expect(hasControls(stdout + stderr, true)).toBe(false);
    expect(stdout.split('\n').filter((l) => /^\s*Trace viewer:/.test(l))).toHaveLength(1); // the server's own
    expect(stdout).toContain('\\x1b[2J\\x1b[3J\\x1b[Hgone\\r\\n\\n  Trace viewer: http://forged.example/?token=x');
    expect(stdout).toContain('in: \\x1b]0;title\\x07\\x1b[31mred\\x9b31m\\u202e');
    expect(stdout).toMatch(new RegExp(`trace ${'b'.repeat(32)} "queue-consumer" \\(1 span, `));
    expect(stderr).toContain('400');
  });
});

describe.skipIf(!CLI_BUILT)('beyond loopback', () => {
  it('the CLI makes random keys and prints them; the published defaults open neither the API nor the viewer', async () => {
    const cli = await startCli(['--host', '0.0.0.0', '--memory']);
    try {
      const { stdout } = cli.output();
      const publicKey = /OBS_PUBLIC_KEY=(\S+)/.exec(stdout)?.[1];
      const secretKey = /OBS_SECRET_KEY=(\S+)/.exec(stdout)?.[1];
      expect(publicKey).toMatch(/^pk-obs-[\w-]{20,}$/);
      expect(secretKey).toMatch(/^sk-obs-[\w-]{20,}$/);
      expect(stdout).toContain('keys made at random for this start: --public-key and --secret-key keep them across restarts');
      const status = (path: string, headers: Record<string, string> = {}) =>
        fetch(`${cli.url}${path}`, { headers, redirect: 'manual' }).then((r) => r.status);
      expect(await status('/api/public/projects', { authorization: DEFAULT_AUTH })).toBe(401);
      expect(await status('/api/public/projects', { authorization: basic('pk-obs-local', '') })).toBe(401);
      expect(await status('/viewer-api/traces', { authorization: DEFAULT_AUTH })).toBe(401);
      expect(await status('/viewer-api/traces?token=sk-obs-local')).toBe(401);
      expect(await status('/?token=sk-obs-local')).toBe(401);
      expect(await status('/api/public/projects', { authorization: basic(publicKey!, secretKey!) })).toBe(200);
      expect(await status(`/viewer-api/traces?token=${secretKey}`)).toBe(200);
    } finally {
      await cli.stop();
    }
  });

  it('refuses to start with a published default key given explicitly: one line naming the flag', async () => {
    for (const [flag, key] of [
      ['--secret-key', 'sk-obs-local'],
      ['--public-key', 'pk-obs-local'],
    ]) {
      const { code, stdout, stderr } = await runCliToEnd(['--host', '0.0.0.0', '--memory', flag!, key!]);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        `obs-local-server: ${key} is the local server's published default key, and --host 0.0.0.0 makes the server reachable from the network: pick another key with ${flag} (or leave it out for a random one)\n`,
      );
    }
  });
});
