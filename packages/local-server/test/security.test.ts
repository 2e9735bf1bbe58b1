/**
 * The server keeps its traces with its user (issue 40): requests naming another host (DNS
 * rebinding) or sent from another origin are refused with 403 and one log line, on the viewer and
 * on the SDK's routes alike; both loopbacks serve it; bound beyond loopback, the viewer needs its
 * token; viewer answers carry no-store, a restrictive CSP and nosniff; the CLI says when the
 * server is reachable from the network and how the viewer is protected.
 */
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/cli-run.js';
import { startObsServer, type ObsServer } from '../src/index.js';
import { basic, makeSpans, toProtobuf } from './helpers.js';

const TRACES = '/api/public/otel/v1/traces';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request over a loopback connection with the headers given as they are (Host included). */
function send(port: number, path: string, headers: Record<string, string>, body?: Buffer, method = body ? 'POST' : 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const canListenOnIpv6Loopback = await new Promise<boolean>((resolve) => {
  const probe = createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});

describe('Host and Origin checks (DNS rebinding)', () => {
  let server: ObsServer;
  let warn: ReturnType<typeof vi.spyOn>;
  beforeAll(async () => {
    server = await startObsServer({ quiet: false });
  });
  afterAll(() => server.close());
  afterEach(() => {
    warn?.mockRestore();
    server.reset();
  });
  const host = (name: string) => ({ host: `${name}:${server.port}` });

  it('refuses a foreign Host on the viewer, its reads and the ingestion route with 403 and one log line each; stores nothing', async () => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ingest = {
      ...host('attacker.example'),
      authorization: basic(server.publicKey, server.secretKey),
      'content-type': 'application/x-protobuf',
    };
    const answers = [
      await send(server.port, '/viewer-api/traces', host('attacker.example')),
      await send(server.port, '/', host('attacker.example')),
      await send(server.port, TRACES, ingest, toProtobuf(makeSpans())),
      await send(server.port, '/api/public/health', host('attacker.example')),
      await send(server.port, '/viewer-api/prompts', host('attacker.example')),
      await send(server.port, '/viewer-api/compare?runs=a,b', host('attacker.example')),
      await send(server.port, '/favicon.ico', host('attacker.example')),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403, 403, 403, 403]);
    expect(JSON.parse(answers[0]!.body).message).toMatch(/Host "attacker\.example:\d+" is not this machine/);
    expect(server.spans()).toHaveLength(0);
    expect(server.requests).toHaveLength(0);
    const lines = warn.mock.calls.map((c) => String(c[0]));
    expect(lines).toHaveLength(7);
    expect(lines[0]).toMatch(
      /^\[obs-local-server\] 403 GET \/viewer-api\/traces: Host "attacker\.example:\d+" is not this machine \(allow .*--allow-host/,
    );
    expect(lines[2]).toContain(`403 POST ${TRACES}`);
  });

  it('refuses names that only look local, a request without Host, and a foreign or null Origin', async () => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const name of ['127.0.0.1.attacker.example', 'localhost.attacker.example', 'attacker.example']) {
      expect((await send(server.port, '/viewer-api/traces', host(name))).status, name).toBe(403);
    }
    // Without Host, Node's HTTP parser answers 400 before the server sees the request.
    expect((await send(server.port, '/viewer-api/traces', {})).status).toBe(400);
    const origin = (o: string) => send(server.port, '/viewer-api/traces', { ...host('127.0.0.1'), origin: o });
    expect((await origin('http://attacker.example')).status).toBe(403);
    expect((await origin('null')).status).toBe(403);
    expect((await origin('http://localhost:5173')).status).toBe(200);
    expect(warn).toHaveBeenCalledTimes(5);
  });

  it('serves loopback names and addresses: localhost, *.localhost, 127.x, [::1]', async () => {
    for (const name of ['localhost', 'app.localhost', '127.0.0.1', '127.3.2.1', '[::1]', 'LOCALHOST.']) {
      expect((await send(server.port, '/viewer-api/traces', host(name))).status, name).toBe(200);
    }
    const sdk = await send(
      server.port,
      TRACES,
      { ...host('localhost'), authorization: basic(server.publicKey, server.secretKey), 'content-type': 'application/x-protobuf' },
      toProtobuf(makeSpans()),
    );
    expect(sdk.status).toBe(200);
    expect(server.spans()).toHaveLength(3);
  });

  it.skipIf(!canListenOnIpv6Loopback)(
    'listens on both loopbacks: http://localhost, http://127.0.0.1 and http://[::1] reach the same server',
    async () => {
      for (const base of [server.url, `http://localhost:${server.port}`, `http://[::1]:${server.port}`]) {
        const res = await fetch(`${base}/viewer-api/traces`);
        expect(res.status, base).toBe(200);
        expect(((await res.json()) as { total: number }).total).toBe(0);
      }
      await server.restart(10); // both come back on the same port
      expect((await fetch(`http://[::1]:${server.port}/viewer-api/traces`)).status).toBe(200);
    },
  );

  it('allows the hosts of allowedHosts and $OBS_LOCAL_ALLOWED_HOSTS (a leading dot: the domain and its subdomains)', async () => {
    vi.stubEnv('OBS_LOCAL_ALLOWED_HOSTS', 'from-env.test, other.test');
    const other = await startObsServer({ quiet: true, allowedHosts: ['obs.internal', '.corp.test'] });
    vi.unstubAllEnvs();
    try {
      const status = async (name: string) => (await send(other.port, '/viewer-api/traces', { host: `${name}:${other.port}` })).status;
      expect(await status('obs.internal')).toBe(200);
      expect(await status('corp.test')).toBe(200);
      expect(await status('a.b.corp.test')).toBe(200);
      expect(await status('from-env.test')).toBe(200);
      expect(await status('other.test')).toBe(200);
      expect(await status('evilcorp.test')).toBe(403);
      expect(await status('obs.internal.attacker.example')).toBe(403);
    } finally {
      await other.close();
    }
  });
});

describe('the viewer beyond loopback: its token', () => {
  let server: ObsServer;
  beforeAll(async () => {
    server = await startObsServer({ quiet: true, host: '0.0.0.0' });
  });
  afterAll(() => server.close());

  it('answers 401 without the token, 200 with it (query, then cookie), with the secret key, and lets the SDK in with its keys', async () => {
    const token = server.viewerToken!;
    expect(token).toMatch(/^[\w-]{20,}$/);
    expect(server.viewerUrl).toBe(`${server.url}/?token=${token}`);
    const status = async (path: string, headers: Record<string, string> = {}) =>
      (await fetch(`${server.url}${path}`, { headers, redirect: 'manual' })).status;

    for (const path of ['/', '/viewer/app.js', '/viewer-api/traces', '/viewer-api/events']) expect(await status(path), path).toBe(401);
    const refused = await fetch(`${server.url}/viewer-api/traces`);
    expect(((await refused.json()) as { message: string }).message).toMatch(/needs its token/);
    expect(refused.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await status('/viewer-api/traces?token=wrong')).toBe(401);
    expect(await status('/viewer-api/traces', { cookie: `obs_viewer_${server.port}=wrong` })).toBe(401);

    expect(await status(`/viewer-api/traces?token=${token}`)).toBe(200);
    const page = await fetch(server.viewerUrl, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/');
    const cookie = page.headers.get('set-cookie')!;
    expect(cookie).toBe(`obs_viewer_${server.port}=${token}; Path=/; HttpOnly; SameSite=Lax`);
    const withCookie = { cookie: cookie.split(';')[0]! };
    for (const path of ['/', '/viewer/app.js', '/viewer-api/traces']) expect(await status(path, withCookie), path).toBe(200);

    expect(await status(`/viewer-api/traces?token=${server.secretKey}`)).toBe(200);
    expect(await status('/viewer-api/traces', { authorization: basic(server.publicKey, server.secretKey) })).toBe(200);
    expect(await status('/viewer-api/traces', { authorization: `Bearer ${token}` })).toBe(200);
    expect(await status('/viewer-api/traces', { authorization: basic(server.publicKey, '') })).toBe(401);

    const sdk = await fetch(`${server.url}${TRACES}`, {
      method: 'POST',
      headers: { authorization: basic(server.publicKey, server.secretKey), 'content-type': 'application/x-protobuf' },
      body: new Uint8Array(toProtobuf(makeSpans())),
    });
    expect(sdk.status).toBe(200);
    expect(await status('/api/public/health')).toBe(200);
  });

  it("accepts this machine's own addresses as Host on a wildcard bind, still refuses foreign names", async () => {
    const own = Object.values(networkInterfaces())
      .flatMap((l) => l ?? [])
      .find((a) => !a.internal && a.family === 'IPv4');
    const headers = (name: string) => ({ host: `${name}:${server.port}`, authorization: `Bearer ${server.viewerToken}` });
    if (own) expect((await send(server.port, '/viewer-api/traces', headers(own.address))).status).toBe(200);
    expect((await send(server.port, '/viewer-api/traces', headers('attacker.example'))).status).toBe(403);
  });

  it('a token given in the options is required even on loopback', async () => {
    const locked = await startObsServer({ quiet: true, viewerToken: 'tok-123' });
    try {
      expect((await fetch(`${locked.url}/viewer-api/traces`)).status).toBe(401);
      expect((await fetch(`${locked.url}/viewer-api/traces?token=tok-123`)).status).toBe(200);
      expect(locked.viewerUrl).toBe(`${locked.url}/?token=tok-123`);
    } finally {
      await locked.close();
    }
  });
});

describe("the viewer's response headers", () => {
  let server: ObsServer;
  beforeAll(async () => {
    server = await startObsServer({ quiet: true });
  });
  afterAll(() => server.close());

  it('carry no-store, a CSP that loads nothing from elsewhere, and nosniff, on the page, its files, its reads and its event stream', async () => {
    const traceId = `${'0'.repeat(31)}1`;
    for (const path of [
      '/',
      '/viewer/app.js',
      '/viewer/prompts.js',
      '/viewer/app.css',
      '/favicon.ico',
      '/viewer-api/traces',
      '/viewer-api/traces?q=anything',
      `/viewer-api/traces/${traceId}`,
      '/viewer-api/prompts',
      '/viewer-api/prompts/p',
      '/viewer-api/datasets',
      '/viewer-api/datasets/none',
      '/viewer-api/compare?runs=a,b',
      '/viewer-api/nothing',
      '/viewer-api/events',
    ]) {
      const controller = new AbortController();
      const res = await fetch(`${server.url}${path}`, { signal: controller.signal });
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(csp, path).toContain("default-src 'none'");
      expect(csp, path).toContain("script-src 'self';");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).not.toMatch(/https?:|\*|'unsafe-/);
      controller.abort();
    }
  });
});

describe('the CLI beyond loopback', () => {
  it('says the server is reachable from the network and how the viewer is protected; the printed address opens it', async () => {
    const printed: string[] = [];
    const running = await runCli(['--host', '0.0.0.0', '--port', '0', '--quiet', '--memory'], {}, (t) => printed.push(t));
    try {
      const server = running!.server;
      const text = printed.join('\n');
      expect(text).toMatch(new RegExp(`^obs local server listening on http://0\\.0\\.0\\.0:${server.port}: reachable from the network`));
      expect(text).toContain(`Trace viewer: ${server.url}/?token=${server.viewerToken}`);
      expect(text).toMatch(/the viewer and its reads need the token in the\s+address above/);
      expect(text).toContain(`OBS_BASE_URL=${server.url}`);
      expect(text.split(server.viewerToken!).length - 1).toBeGreaterThanOrEqual(1);
      const viewerUrl = /Trace viewer: (\S+)/.exec(text)![1]!;
      const opened = await fetch(viewerUrl, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      const page = await fetch(new URL('/', viewerUrl), { headers: { cookie: opened.headers.get('set-cookie')!.split(';')[0]! } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<script type="module" src="/viewer/app.js">');
      expect((await fetch(`${server.url}/viewer-api/traces`)).status).toBe(401);
    } finally {
      running?.stop();
      await running?.server.close();
    }
  });

  it('on loopback prints the viewer without a token, as before', async () => {
    const printed: string[] = [];
    const running = await runCli(['--port', '0', '--quiet', '--memory'], {}, (t) => printed.push(t));
    try {
      const server = running!.server;
      expect(printed[0]).toMatch(new RegExp(`^obs local server listening on ${server.url}\\n\\n  Trace viewer: ${server.url}/\\n`));
      expect(server.viewerToken).toBeUndefined();
      expect((await fetch(`${server.url}/viewer-api/traces`)).status).toBe(200);
    } finally {
      running?.stop();
      await running?.server.close();
    }
  });
});
