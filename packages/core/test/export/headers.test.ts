/**
 * The export request as the server received it: path, Basic auth, the obs headers of wire
 * contract 1, and `additionalHeaders` replacing a default whatever the case of its name.
 */

import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { startObservation } from '../../src/index.js';
import { PACKAGE_VERSION, perTestTracing, type RecordedRequest, TRACING_KEYS, traceRequests } from '../tracing/harness.js';

const { server } = await setupObsServer(TRACING_KEYS).ready;
const install = perTestTracing(server, undefined, { restoreLogs: false });

/** Header names as sent on the wire (raw), lower-cased. */
function rawHeaderNames(req: RecordedRequest): string[] {
  return req.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
}

async function exportOne(options: Parameters<typeof install>[0] = {}): Promise<RecordedRequest> {
  const tracing = install(options);
  startObservation('header-probe').end();
  await tracing.flush();
  const requests = traceRequests(server);
  expect(requests).toHaveLength(1);
  expect(requests[0]!.status).toBe(200);
  return requests[0]!;
}

describe('export request headers', () => {
  it('POSTs protobuf to /api/public/otel/v1/traces with Basic auth and the obs headers', async () => {
    const req = await exportOne();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/api/public/otel/v1/traces');
    const expectedAuth = `Basic ${Buffer.from(`${server.publicKey}:${server.secretKey}`).toString('base64')}`;
    expect(req.headers.authorization).toBe(expectedAuth);
    expect(req.auth).toBe('secret');
    expect(req.headers['content-type']).toBe('application/x-protobuf');
    expect(req.headers['x-obs-ingestion-version']).toBe('4');
    expect(req.headers['x-obs-sdk-name']).toBe('javascript');
    expect(req.headers['x-obs-sdk-version']).toBe(PACKAGE_VERSION);
    expect(req.headers['x-obs-public-key']).toBe(server.publicKey);
    expect(server.spansByName('header-probe')).toHaveLength(1);
  });

  it('the secret key appears in no header but Authorization, and in no span attribute', async () => {
    const req = await exportOne();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name === 'authorization') continue;
      expect(String(value), name).not.toContain(server.secretKey);
    }
    const span = server.spansByName('header-probe')[0]!;
    expect(JSON.stringify({ a: span.attributes, r: span.resource })).not.toContain(server.secretKey);
  });

  it("additionalHeaders { 'X-OBS-Ingestion-Version': '3' } replaces the default: exactly one such header is sent", async () => {
    const req = await exportOne({ additionalHeaders: { 'X-OBS-Ingestion-Version': '3', 'X-Team': 'search' } });
    expect(req.headers['x-obs-ingestion-version']).toBe('3');
    expect(rawHeaderNames(req).filter((n) => n === 'x-obs-ingestion-version')).toHaveLength(1);
    expect(req.headers['x-team']).toBe('search');
    // Other defaults are kept.
    expect(req.headers['x-obs-sdk-name']).toBe('javascript');
    expect(req.auth).toBe('secret');
  });

  it('lower-case and mixed-case overrides of other defaults also replace them (one header each)', async () => {
    const req = await exportOne({ additionalHeaders: { 'x-obs-ingestion-version': '3', 'X-Obs-Sdk-Name': 'javascript-custom' } });
    expect(req.headers['x-obs-ingestion-version']).toBe('3');
    expect(req.headers['x-obs-sdk-name']).toBe('javascript-custom');
    const names = rawHeaderNames(req);
    expect(names.filter((n) => n === 'x-obs-ingestion-version')).toHaveLength(1);
    expect(names.filter((n) => n === 'x-obs-sdk-name')).toHaveLength(1);
  });

  it('a base URL with a trailing slash still hits the traces path', async () => {
    const req = await exportOne({ baseUrl: `${server.url}/` });
    expect(req.path).toBe('/api/public/otel/v1/traces');
  });

  it('keys and base URL come from OBS_* environment variables when options are absent', async () => {
    const saved = { ...process.env };
    process.env.OBS_PUBLIC_KEY = server.publicKey;
    process.env.OBS_SECRET_KEY = server.secretKey;
    process.env.OBS_BASEURL = server.url;
    try {
      const req = await exportOne({ baseUrl: undefined, publicKey: undefined, secretKey: undefined });
      expect(req.auth).toBe('secret');
      expect(req.headers['x-obs-public-key']).toBe(server.publicKey);
    } finally {
      for (const k of ['OBS_PUBLIC_KEY', 'OBS_SECRET_KEY', 'OBS_BASEURL']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });
});
