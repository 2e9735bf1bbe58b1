/**
 * Compression of span exports (wire contract 1, contract 9.2): option, OBS_OTEL_COMPRESSION,
 * OTEL_EXPORTER_OTLP_TRACES_COMPRESSION, OTEL_EXPORTER_OTLP_COMPRESSION, then gzip. Values are
 * trimmed and case-insensitive; an invalid one warns and falls through to the next source.
 * Asserted on the Content-Encoding header AND on the bytes the server received.
 */
import { gunzipSync } from 'node:zlib';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it, vi } from 'vitest';
import { startObservation } from '../../src/index.js';
import { captureLogs, perTestTracing, type RecordedRequest, TRACING_KEYS, traceRequests, warnings } from '../tracing/harness.js';

const ENV_KEYS = ['OBS_OTEL_COMPRESSION', 'OTEL_EXPORTER_OTLP_TRACES_COMPRESSION', 'OTEL_EXPORTER_OTLP_COMPRESSION'] as const;
type EnvKey = (typeof ENV_KEYS)[number];

const { server } = await setupObsServer(TRACING_KEYS).ready;
const install = perTestTracing(server, () => {
  for (const k of ENV_KEYS) delete process.env[k];
});

async function exportWith(option: string | undefined, env: Partial<Record<EnvKey, string>>): Promise<RecordedRequest> {
  for (const k of ENV_KEYS) delete process.env[k];
  Object.assign(process.env, env);
  const tracing = install(option === undefined ? {} : { compression: option });
  startObservation('compression-probe', { input: 'x'.repeat(2000) }).end();
  await tracing.flush();
  const requests = traceRequests(server);
  expect(requests).toHaveLength(1);
  expect(requests[0]!.status).toBe(200);
  // Whatever the encoding, the server decoded the span intact.
  const spans = server.spansByName('compression-probe');
  expect(spans).toHaveLength(1);
  expect(spans[0]!.attributes['obs.observation.input']).toBe('x'.repeat(2000));
  return requests[0]!;
}

function expectGzip(req: RecordedRequest): void {
  expect(req.headers['content-encoding']).toBe('gzip');
  expect([...req.rawBody.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
  expect(gunzipSync(req.rawBody).equals(req.body)).toBe(true);
  expect(req.rawBody.length).toBeLessThan(req.body.length);
  expect(server.spans()[0]!.compressed).toBe(true);
}

function expectNone(req: RecordedRequest): void {
  expect(req.headers['content-encoding']).toBeUndefined();
  expect([...req.rawBody.subarray(0, 2)]).not.toEqual([0x1f, 0x8b]);
  expect(req.rawBody.equals(req.body)).toBe(true);
  expect(server.spans()[0]!.compressed).toBe(false);
}

interface Case {
  name: string;
  option?: string;
  env: Partial<Record<EnvKey, string>>;
  expected: 'gzip' | 'none';
  /** Sources expected to be warned about (their raw values). */
  warns?: string[];
}

const cases: Case[] = [
  { name: 'default (nothing set) is gzip', env: {}, expected: 'gzip' },
  // 1. the option wins over every environment variable
  {
    name: 'option none beats all env gzip',
    option: 'none',
    env: { OBS_OTEL_COMPRESSION: 'gzip', OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'gzip', OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip' },
    expected: 'none',
  },
  {
    name: 'option gzip beats all env none',
    option: 'gzip',
    env: { OBS_OTEL_COMPRESSION: 'none', OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'none', OTEL_EXPORTER_OTLP_COMPRESSION: 'none' },
    expected: 'gzip',
  },
  // 2. OBS_OTEL_COMPRESSION beats the OTel variables
  {
    name: 'OBS_OTEL_COMPRESSION=none beats OTEL gzip',
    env: { OBS_OTEL_COMPRESSION: 'none', OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'gzip', OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip' },
    expected: 'none',
  },
  {
    name: 'OBS_OTEL_COMPRESSION=" GZIP " (trimmed, case-insensitive) beats OTEL none',
    env: { OBS_OTEL_COMPRESSION: ' GZIP ', OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'none', OTEL_EXPORTER_OTLP_COMPRESSION: 'none' },
    expected: 'gzip',
  },
  // 3. the traces-specific OTel variable beats the general one
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_COMPRESSION=None beats general gzip',
    env: { OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'None', OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip' },
    expected: 'none',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_COMPRESSION=gzip beats general none',
    env: { OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'gzip', OTEL_EXPORTER_OTLP_COMPRESSION: 'none' },
    expected: 'gzip',
  },
  // 4. the general OTel variable beats the default
  {
    name: 'OTEL_EXPORTER_OTLP_COMPRESSION=" NONE " beats the default',
    env: { OTEL_EXPORTER_OTLP_COMPRESSION: ' NONE ' },
    expected: 'none',
  },
  { name: 'OTEL_EXPORTER_OTLP_COMPRESSION=gzip', env: { OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip' }, expected: 'gzip' },
  // the option is case-insensitive and trimmed too
  { name: 'option " NONE "', option: ' NONE ', env: {}, expected: 'none' },
  { name: 'option "GZip" beats env none', option: 'GZip', env: { OBS_OTEL_COMPRESSION: 'none' }, expected: 'gzip' },
  // invalid values fall through, with a warning each
  {
    name: 'invalid option falls through to OBS_OTEL_COMPRESSION',
    option: 'brotli',
    env: { OBS_OTEL_COMPRESSION: 'none' },
    expected: 'none',
    warns: ['brotli'],
  },
  {
    name: 'invalid OBS_OTEL_COMPRESSION falls through to the traces variable',
    env: { OBS_OTEL_COMPRESSION: 'zstd', OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'none', OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip' },
    expected: 'none',
    warns: ['zstd'],
  },
  {
    name: 'invalid traces variable falls through to the general one',
    env: { OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'deflate', OTEL_EXPORTER_OTLP_COMPRESSION: 'none' },
    expected: 'none',
    warns: ['deflate'],
  },
  {
    name: 'invalid everywhere ends at the gzip default with one warning per source',
    option: 'lz4',
    env: { OBS_OTEL_COMPRESSION: 'snappy', OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'br', OTEL_EXPORTER_OTLP_COMPRESSION: 'yes' },
    expected: 'gzip',
    warns: ['lz4', 'snappy', 'br', 'yes'],
  },
];

describe('compression resolution', () => {
  it.each(cases)('$name', async ({ option, env, expected, warns = [] }) => {
    const logs = captureLogs();
    const req = await exportWith(option, env);
    if (expected === 'gzip') expectGzip(req);
    else expectNone(req);
    const warned = warnings(logs);
    expect(warned).toHaveLength(warns.length);
    for (const [i, value] of warns.entries()) expect(warned[i]).toContain(`"${value}"`);
  });

  it('an empty environment variable counts as unset (no warning)', async () => {
    const logs = captureLogs();
    const req = await exportWith(undefined, { OBS_OTEL_COMPRESSION: '', OTEL_EXPORTER_OTLP_COMPRESSION: 'none' });
    expectNone(req);
    expect(warnings(logs)).toEqual([]);
  });
});

describe('gzip', () => {
  it('round-trips small (synchronous), large and incompressible (several output chunks) bodies', async () => {
    const { gzip } = await import('../../src/export/otlp/compression.js');
    const { randomBytes } = await import('node:crypto');
    const text = new TextEncoder().encode('span text that repeats, as span batches do. '.repeat(20_000)); // ~880 KB
    const noise = new Uint8Array(randomBytes(10 * 1024 * 1024)); // compresses to more than one 4 MiB chunk
    for (const body of [text.subarray(0, 1000), text, noise]) {
      const out = await gzip(body);
      expect([...out.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
      expect(gunzipSync(out).equals(Buffer.from(body))).toBe(true);
    }
    expect((await gzip(text)).byteLength).toBeLessThan(text.byteLength / 20);
  });

  it('on Cloudflare Workers (navigator.userAgent), even with nodejs_compat’s process.versions: uncompressed, through fetch', async () => {
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    try {
      const req = await exportWith('gzip', {});
      expect(req.headers['content-encoding']).toBeUndefined();
      // fetch (undici) names itself; node:http sends no user-agent.
      expect(req.headers['user-agent']).toBe('node');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
