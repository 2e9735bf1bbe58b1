/**
 * What a request costs the server before it is let in (issue 45): the key is checked from the
 * headers before a byte of the body is read (a body that never comes is answered 401 at once),
 * a compressed body is held to the size limit once decoded (413), a request naming two hosts or
 * another host in its target is answered 400, HEAD is answered like GET, and a server that does
 * not record (the CLI) keeps nothing of a request once its spans are stored.
 */
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startObsServer, type ObsServer } from '../src/index.js';
import { basic, makeSpans, toProtobuf } from './helpers.js';

const TRACES = '/api/public/otel/v1/traces';

/** Writes raw bytes on a fresh connection; resolves with what came back once the server closed it (or after `ms`). */
function raw(port: number, bytes: string | Buffer, ms = 3000): Promise<{ text: string; closed: boolean; elapsed: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false, elapsed: Date.now() - started });
    }, ms);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true, elapsed: Date.now() - started });
    });
    socket.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    socket.write(bytes);
  });
}

describe('the key before the body', () => {
  let server: ObsServer;
  beforeAll(async () => {
    server = await startObsServer({ quiet: true });
  });
  afterAll(() => server.close());
  afterEach(() => server.reset());

  it('answers 401 from the headers while the body has not come, and closes the connection; nothing is stored', async () => {
    for (const authorization of ['', `Authorization: ${basic(server.publicKey, 'wrong')}\r\n`]) {
      // 50 MB announced, none sent: a server that read the body first would wait for it.
      const answer = await raw(
        server.port,
        `POST ${TRACES} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${authorization}Content-Type: application/x-protobuf\r\nContent-Length: 52428800\r\n\r\n`,
      );
      expect(answer.text).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer.text.toLowerCase()).toContain('connection: close');
      expect(answer.closed).toBe(true);
      expect(answer.elapsed).toBeLessThan(2000);
    }
    expect(server.requests.map((r) => [r.status, r.auth, r.body.length])).toEqual([
      [401, 'none', 0],
      [401, 'invalid', 0],
    ]);
    expect(server.spans()).toHaveLength(0);
  });

  it('an unknown route off the API answers 404 without reading the body', async () => {
    const answer = await raw(server.port, `POST /elsewhere HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Length: 5000000\r\n\r\n`);
    expect(answer.text).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer.closed).toBe(true);
  });

  it('a refused request with a small body keeps its connection: the body is dropped, the next request answered', async () => {
    const body = 'x'.repeat(1000);
    const request = (authorization: string) =>
      `POST ${TRACES} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${authorization}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const answer = await raw(server.port, request('') + request(`Authorization: ${basic(server.publicKey, server.secretKey)}\r\n`), 1000);
    expect(answer.text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 401', 'HTTP/1.1 400']); // the second's body is no OTLP
    expect(answer.closed).toBe(false);
  });
});

describe('compressed bodies held to the size limit once decoded', () => {
  let server: ObsServer;
  beforeAll(async () => {
    server = await startObsServer({ quiet: true, maxBodyBytes: 1024 * 1024 });
  });
  afterAll(() => server.close());

  const post = (body: Buffer, encoding: string) =>
    fetch(`${server.url}${TRACES}`, {
      method: 'POST',
      headers: {
        authorization: basic(server.publicKey, server.secretKey),
        'content-type': 'application/json',
        'content-encoding': encoding,
      },
      body: new Uint8Array(body),
    });

  it('gzip, deflate and br that inflate past the limit: 413 with one clear message; smaller ones are stored', async () => {
    const bomb = Buffer.alloc(2 * 1024 * 1024, 0x20); // 2 MiB of spaces: a few KB compressed
    for (const [encoding, compress] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      const compressed = compress(bomb);
      expect(compressed.length).toBeLessThan(20_000);
      const res = await post(compressed, encoding);
      expect(res.status, encoding).toBe(413);
      expect(((await res.json()) as { message: string }).message).toBe(
        `request body larger than ${1024 * 1024} bytes once its ${encoding} encoding is undone`,
      );
    }
    const small = Buffer.from(
      JSON.stringify({
        resourceSpans: [
          {
            scopeSpans: [
              { spans: [{ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), name: 'fits', startTimeUnixNano: '1', endTimeUnixNano: '2' }] },
            ],
          },
        ],
      }),
    );
    expect((await post(gzipSync(small), 'gzip')).status).toBe(200);
    expect(server.spansByName('fits')).toHaveLength(1);
  });
});

describe('one host, named once', () => {
  let server: ObsServer;
  let warn: ReturnType<typeof vi.spyOn>;
  beforeAll(async () => {
    server = await startObsServer({ quiet: false });
  });
  afterAll(() => server.close());
  afterEach(() => warn?.mockRestore());

  it('two Host headers, a foreign absolute-form target, an asterisk target: 400 and one line each', async () => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const host = `127.0.0.1:${server.port}`;
    const answers = [
      await raw(server.port, `GET /viewer-api/traces HTTP/1.1\r\nHost: ${host}\r\nHost: attacker.example\r\nConnection: close\r\n\r\n`),
      await raw(server.port, `GET /viewer-api/traces HTTP/1.1\r\nHost: attacker.example\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      await raw(server.port, `GET http://attacker.example/viewer-api/traces HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      await raw(server.port, `GET http://attacker.example:${server.port}/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      await raw(server.port, `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    ];
    expect(answers.map((a) => a.text.slice(0, 12))).toEqual(Array(5).fill('HTTP/1.1 400'));
    const lines = warn.mock.calls.map((c) => String(c[0]));
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe('[obs-local-server] 400 GET: the request has 2 Host headers');
    expect(lines[2]).toBe('[obs-local-server] 400 GET: the request target names another host ("attacker.example")');
    // An absolute-form target naming this machine is served.
    const local = await raw(server.port, `GET http://${host}/api/public/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(local.text).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('HEAD is answered like GET, without a body: the page, its files, a read, the health check', async () => {
    for (const path of ['/', '/viewer/app.js', '/viewer-api/traces', '/viewer-api/events', '/api/public/health']) {
      const res = await fetch(`${server.url}${path}`, { method: 'HEAD' });
      expect([path, res.status, (await res.arrayBuffer()).byteLength]).toEqual([path, 200, 0]);
    }
    expect((await fetch(`${server.url}/`, { method: 'HEAD' })).headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('a server that does not record (the CLI)', () => {
  it('stores the spans and keeps nothing of the requests', async () => {
    const server = await startObsServer({ quiet: true, record: false });
    try {
      const res = await fetch(`${server.url}${TRACES}`, {
        method: 'POST',
        headers: { authorization: basic(server.publicKey, server.secretKey), 'content-type': 'application/x-protobuf' },
        body: new Uint8Array(toProtobuf(makeSpans())),
      });
      expect(res.status).toBe(200);
      const scores = await fetch(`${server.url}/api/public/scores`, {
        method: 'POST',
        headers: { authorization: basic(server.publicKey, server.secretKey), 'content-type': 'application/json' },
        body: JSON.stringify([{ traceId: 'a'.repeat(32), name: 'q', value: 1 }]),
      });
      expect(scores.status).toBe(200);
      expect([server.spans().length, server.scores.length]).toEqual([3, 1]);
      expect([server.requests, server.scoreRequests, server.media.asks]).toEqual([[], [], []]);
    } finally {
      await server.close();
    }
  });
});
