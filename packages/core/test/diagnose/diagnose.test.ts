/**
 * Knowing why nothing arrives: diagnose() and `obs doctor` against a real local server (no keys,
 * wrong keys, an unreachable server, stray whitespace, all good), the start-up line at the
 * default level, the debug diagnosis with a NodeTracerProvider registered first, and the warning
 * for options given in the wrong place.
 */
import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupObsServer } from '@obs/local-server/testing';
import { trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diagnose } from '../../src/setup/diagnose.js';
import { initObs } from '../../src/setup/init.js';
import { setLogLevel } from '../../src/util/logger.js';
import { warnMisplacedOptions } from '../../src/config/misplaced-options.js';
import { captureLogs, type LogLine, restoreLogger, TRACING_KEYS } from '../support/server.js';

const { server } = await setupObsServer({ ...TRACING_KEYS, reset: false }).ready;
const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');
const saved = { ...process.env };
let logs: LogLine[];

beforeEach(() => {
  for (const k of Object.keys(process.env)) if (k.startsWith('OBS_')) delete process.env[k];
  logs = captureLogs();
});
afterEach(() => {
  process.env = { ...saved };
  restoreLogger();
});

const keys = { baseUrl: server.url, publicKey: TRACING_KEYS.publicKey, secretKey: TRACING_KEYS.secretKey };
const byName = (d: Awaited<ReturnType<typeof diagnose>>) => Object.fromEntries(d.checks.map((c) => [c.name, c]));

describe('diagnose()', () => {
  it('all good: every check passes and the printout says so', async () => {
    const lines: string[] = [];
    const d = await diagnose({ ...keys, print: (l) => lines.push(l) });
    expect(d.ok).toBe(true);
    expect(d.checks.map((c) => c.name)).toEqual(['configuration', 'whitespace', 'server', 'clock', 'keys']);
    expect(lines.at(-1)).toBe('obs is set up: spans and scores will reach the server.');
  });

  it('no keys: the configuration check fails and names what is missing; nothing else is asked', async () => {
    const before = server.requests.length;
    const d = await diagnose({});
    expect(d.ok).toBe(false);
    expect(byName(d)['configuration']).toMatchObject({
      ok: false,
      message: 'missing publicKey (OBS_PUBLIC_KEY), secretKey (OBS_SECRET_KEY), baseUrl (OBS_BASE_URL)',
    });
    expect(server.requests.length).toBe(before);
  });

  it('wrong keys: "wrong keys for this server", not a stack', async () => {
    const lines: string[] = [];
    const d = await diagnose({ ...keys, secretKey: 'sk-wrong', print: (l) => lines.push(l) });
    expect(byName(d)['keys']).toMatchObject({ ok: false, message: 'wrong keys for this server (HTTP 401)' });
    expect(byName(d)['server']?.ok).toBe(true);
    expect(lines).toContain('✗ keys: wrong keys for this server (HTTP 401)');
    expect(lines.some((l) => l.startsWith('- check OBS_PUBLIC_KEY and OBS_SECRET_KEY'))).toBe(true);
  });

  it('an unreachable server: says so with the reason', async () => {
    const port = await closedPort();
    const d = await diagnose({ ...keys, baseUrl: `http://127.0.0.1:${port}`, timeout: 2 });
    expect(byName(d)['server']).toMatchObject({ ok: false, message: `http://127.0.0.1:${port} is not reachable: ECONNREFUSED` });
    expect(byName(d)['keys']).toBeUndefined();
  });

  for (const [what, path, answer] of [
    ['a base URL below the obs server (every path answers 404)', '/api/public', undefined],
    ['a server that is not obs (an HTML page for every path)', '', 'html'],
  ] as const) {
    it(`${what}: a wrong base URL, not "set up"; keys and clock not judged`, async () => {
      const other = await startOtherServer(answer);
      try {
        const lines: string[] = [];
        const d = await diagnose({ ...keys, baseUrl: `${other.url}${path}`, print: (l) => lines.push(l) });
        expect(d.ok).toBe(false);
        expect(byName(d)['server']).toMatchObject({ ok: false, fix: expect.stringContaining('check OBS_BASE_URL') });
        expect(byName(d)['server']!.message).toContain('this is not an obs server');
        expect(byName(d)['keys']).toBeUndefined();
        expect(lines.filter((l) => l.startsWith('✓ server'))).toEqual([]);
        expect(lines).not.toContain('obs is set up: spans and scores will reach the server.');
        expect(lines.filter((l) => l.startsWith('- check OBS_BASE_URL'))).toHaveLength(1);
      } finally {
        await other.close();
      }
    });
  }

  it('a key pasted with a trailing newline is harmless, as the README says: noted, not failed; the all-clear', async () => {
    process.env['OBS_PUBLIC_KEY'] = `${TRACING_KEYS.publicKey}\n`;
    process.env['OBS_SECRET_KEY'] = TRACING_KEYS.secretKey;
    process.env['OBS_BASE_URL'] = `${server.url}\n`;
    const d = await diagnose();
    expect(byName(d)['whitespace']).toEqual({
      name: 'whitespace',
      ok: true,
      message: 'OBS_PUBLIC_KEY, OBS_BASE_URL end or start with whitespace (a newline from a secrets file): obs trims it, harmless',
    });
    expect(byName(d)['keys']?.ok).toBe(true);
    expect(d.ok).toBe(true);
  });

  it('whitespace inside a key fails the check, with the fix', async () => {
    process.env['OBS_PUBLIC_KEY'] = TRACING_KEYS.publicKey;
    process.env['OBS_SECRET_KEY'] = `${TRACING_KEYS.secretKey.slice(0, 4)} ${TRACING_KEYS.secretKey.slice(4)}`;
    process.env['OBS_BASE_URL'] = server.url;
    const d = await diagnose();
    expect(byName(d)['whitespace']).toMatchObject({
      ok: false,
      message: 'OBS_SECRET_KEY has whitespace inside: no server accepts it',
      fix: 'remove the whitespace from OBS_SECRET_KEY where it is set',
    });
    expect(d.ok).toBe(false);
  });

  it('the clock: a Date header a fraction of a second behind (whole seconds) is in sync, not a difference; a real difference is named', async () => {
    // An obs server whose Date header is written late in its second: up to a second behind the real time.
    const late = await startOtherServer('health', () => new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString());
    const off = await startOtherServer('health', () => new Date(Date.now() - 10 * 60_000).toUTCString());
    try {
      // Wait until late in a second, where truncation is largest.
      await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 900));
      expect(byName(await diagnose({ ...keys, baseUrl: late.url }))['clock']).toEqual({
        name: 'clock',
        ok: true,
        message: "clock in sync with the server's (to the second, as its Date header tells)",
      });
      expect(byName(await diagnose({ ...keys, baseUrl: off.url }))['clock']).toMatchObject({
        ok: false,
        message: expect.stringMatching(/^clock is (599|600) s ahead of the server's$/),
      });
    } finally {
      await late.close();
      await off.close();
    }
  });
});

describe('obs doctor', () => {
  // Asynchronously: the server answering it runs in this process.
  const doctor = (env: Record<string, string>) =>
    new Promise<{ status: number; stdout: string }>((resolve) => {
      execFile(process.execPath, [CLI, 'doctor'], { env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: 20_000 }, (err, stdout) =>
        resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout }),
      );
    });

  it('a base URL that answers 404: exits 1 with the fix, never the all-clear', async () => {
    const other = await startOtherServer(undefined);
    try {
      const r = await doctor({ OBS_BASE_URL: other.url, OBS_PUBLIC_KEY: TRACING_KEYS.publicKey, OBS_SECRET_KEY: TRACING_KEYS.secretKey });
      expect(r.status).toBe(1);
      expect(r.stdout).toContain('✗ server:');
      expect(r.stdout).toContain('check OBS_BASE_URL');
      expect(r.stdout).not.toContain('✓ server');
      expect(r.stdout).not.toContain('obs is set up');
    } finally {
      await other.close();
    }
  });

  it('the command is the package name or a bin name of its own: `npx @obs/core doctor`, `npx obs-doctor`', async () => {
    const pkg = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(path.join(path.dirname(CLI), '../package.json'), 'utf8')));
    // One bin, so `npx @obs/core` runs it; named so that no other package's bin shadows it.
    expect(pkg.bin).toEqual({ 'obs-doctor': './dist/cli.js' });
    const env = { OBS_BASE_URL: server.url, OBS_PUBLIC_KEY: TRACING_KEYS.publicKey, OBS_SECRET_KEY: TRACING_KEYS.secretKey };
    // `doctor` may be left out (npx obs-doctor).
    const bare = await new Promise<number>((resolve) =>
      execFile(process.execPath, [CLI], { env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: 20_000 }, (err) =>
        resolve(err ? ((err as { code?: number }).code ?? 1) : 0),
      ),
    );
    expect(bare).toBe(0);
    expect((await doctor(env)).stdout).toContain('obs is set up');
  });

  it('exits 0 and prints every check when the set-up works, 1 with the fix when the keys are wrong', async () => {
    const good = await doctor({ OBS_BASE_URL: server.url, OBS_PUBLIC_KEY: TRACING_KEYS.publicKey, OBS_SECRET_KEY: TRACING_KEYS.secretKey });
    expect(good.status).toBe(0);
    expect(good.stdout).toContain('✓ keys: keys accepted (HTTP 200)');
    const bad = await doctor({ OBS_BASE_URL: server.url, OBS_PUBLIC_KEY: TRACING_KEYS.publicKey, OBS_SECRET_KEY: 'sk-nope' });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('✗ keys: wrong keys for this server (HTTP 401)');
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

describe('start-up lines', () => {
  it('at the default level: one line says obs is on and where spans go; without keys the one line is the warning of what is missing', async () => {
    setLogLevel('warn');
    const on = initObs({ ...keys, flushOnExit: false });
    await on.shutdown();
    expect(logs.map((l) => `${l.level} ${l.message}`)).toEqual([
      `info [obs] on: exporting to ${server.url} (obs registered its own tracer provider; OBS_DEBUG=1 explains more)`,
    ]);
    logs.length = 0;
    const off = initObs({ flushOnExit: false });
    await off.shutdown();
    expect(logs.map((l) => `${l.level} ${l.message}`)).toEqual([
      'warn [obs] obs is not configured: missing publicKey (OBS_PUBLIC_KEY), secretKey (OBS_SECRET_KEY), baseUrl (OBS_BASE_URL); spans and scores are not sent. Set them as options or environment variables.',
    ]);
  });

  it('with debug: true and a NodeTracerProvider registered first: the diagnosis names it, the mode and the context manager', async () => {
    const provider = new NodeTracerProvider();
    provider.register();
    try {
      const obs = initObs({ ...keys, debug: true, flushOnExit: false });
      await obs.shutdown();
      const diagnosis = logs.filter((l) => l.message.startsWith('[obs] diagnosis:')).map((l) => l.message);
      expect(diagnosis).toHaveLength(6);
      expect(diagnosis[0]).toBe(`[obs] diagnosis: base URL: ${server.url}`);
      expect(diagnosis[1]).toBe(`[obs] diagnosis: public key: ${TRACING_KEYS.publicKey}; secret key: set (sk-...cret)`);
      expect(diagnosis[2]).toMatch(/^\[obs\] diagnosis: mode: attached .*; provider found before obs: NodeTracerProvider/);
      expect(diagnosis[3]).toBe('[obs] diagnosis: async context manager: active');
      // The batching as resolved (options, then OBS_* variables, then defaults), never "default s".
      expect(diagnosis[5]).toBe('[obs] diagnosis: export: batched, flushAt 512 spans, flushInterval 1 s, compression gzip');
      expect(logs.find((l) => l.level === 'info' && l.message.startsWith('[obs] on:'))?.message).toBe(
        `[obs] on: exporting to ${server.url} (obs attached its span processor to the registered tracer provider; OBS_DEBUG=1 explains more)`,
      );
      expect(logs.map((l) => l.message).join('\n')).not.toContain(TRACING_KEYS.secretKey);
    } finally {
      await provider.shutdown();
      trace.disable();
      setLogLevel('warn');
    }
  });

  it('an initObs option at an adapter top level warns once, naming the right place', () => {
    setLogLevel('warn');
    warnMisplacedOptions('obsMiddleware', { baseUrl: 'http://x', identify: () => undefined });
    warnMisplacedOptions('obsMiddleware', { baseUrl: 'http://x' });
    warnMisplacedOptions('withObs', { secretKey: 'sk' }, (key) => `registerObs({ ${key} }) in instrumentation.ts`);
    expect(logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      '[obs] obsMiddleware({ baseUrl }) is ignored: `baseUrl` is an initObs option; pass it as obsMiddleware({ obs: { baseUrl } }) (or set the OBS_* environment variable)',
      '[obs] withObs({ secretKey }) is ignored: `secretKey` is an initObs option; pass it as registerObs({ secretKey }) in instrumentation.ts (or set the OBS_* environment variable)',
    ]);
  });
});

/** A server that is not obs: 404 for every path, or (`html`) a 200 HTML page for every path. */
async function startOtherServer(
  answer: 'html' | 'health' | undefined,
  date?: () => string,
): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const srv = createServer((_req, res) => {
    if (date) res.setHeader('date', date());
    if (answer === 'html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>');
    else if (answer === 'health') res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"OK"}');
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => srv.close(() => resolve())) };
}
