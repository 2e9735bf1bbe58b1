import { readEnv } from '../env.js';
import { logger } from '../logger.js';

/** How span exports are compressed. */
export type Compression = 'gzip' | 'none';

const SOURCES = ['OBS_OTEL_COMPRESSION', 'OTEL_EXPORTER_OTLP_TRACES_COMPRESSION', 'OTEL_EXPORTER_OTLP_COMPRESSION'] as const;

/**
 * Wire contract 1 / contract 9.2: option, `OBS_OTEL_COMPRESSION`,
 * `OTEL_EXPORTER_OTLP_TRACES_COMPRESSION`, `OTEL_EXPORTER_OTLP_COMPRESSION`, then gzip. Values
 * are trimmed and case-insensitive; an invalid one is warned about and the next source is read.
 * Runtimes without Node (edge, browsers) always send uncompressed.
 */
export function resolveCompression(option?: string): Compression {
  if (!isNodeRuntime()) return 'none';
  const candidates: [string, string | undefined][] = [
    ['option compression', option],
    ...SOURCES.map((name): [string, string | undefined] => [name, readEnv(name)]),
  ];
  for (const [source, raw] of candidates) {
    if (raw === undefined || raw === null) continue;
    const v = String(raw).trim().toLowerCase();
    if (v === 'gzip' || v === 'none') return v;
    logger.warn(`invalid compression "${String(raw)}" from ${source} (expected gzip or none); trying the next source`);
  }
  return 'gzip';
}

/** True on Node.js and Bun, false on edge runtimes and browsers. */
export function isNodeRuntime(): boolean {
  const g = globalThis as { process?: { versions?: { node?: string } }; EdgeRuntime?: unknown };
  return typeof g.EdgeRuntime === 'undefined' && typeof g.process?.versions?.node === 'string';
}

type Zlib = {
  gzip(data: Uint8Array, opts: { level: number }, cb: (err: Error | null, out: Uint8Array) => void): void;
  gzipSync(data: Uint8Array, opts: { level: number }): Uint8Array;
};

/** Below this, synchronous gzip is cheaper than a thread-pool round trip (~20 µs vs ~90 µs). */
const SYNC_GZIP_MAX_BYTES = 64 * 1024;

/**
 * Node's zlib when there is one, fetched with `process.getBuiltinModule` so edge bundles never
 * see a Node import; it compresses on the thread pool, off the event loop.
 */
const zlib: Zlib | undefined = (() => {
  try {
    const p = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    return p?.getBuiltinModule?.('node:zlib') as Zlib | undefined;
  } catch {
    return undefined;
  }
})();

/**
 * Gzips a batch. Level 1: span batches are repetitive, so it keeps most of the size win for a
 * fraction of level 6's CPU (the exporter runs in the app's process).
 */
export async function gzip(data: Uint8Array): Promise<Uint8Array> {
  if (zlib) {
    if (data.byteLength <= SYNC_GZIP_MAX_BYTES) return zlib.gzipSync(data, { level: 1 });
    return new Promise((resolve, reject) => zlib.gzip(data, { level: 1 }, (err, out) => (err ? reject(err) : resolve(out))));
  }
  // Through globalThis so edge bundlers do not flag a Node.js API: gzip is never used there.
  const Compression = (globalThis as { CompressionStream?: typeof CompressionStream }).CompressionStream!;
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new Compression('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
