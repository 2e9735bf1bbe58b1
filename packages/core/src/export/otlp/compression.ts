import { readEnv } from '../../config/env.js';
import { logger } from '../../util/logger.js';
import { isNodeRuntime, nodeBuiltin } from '../../util/runtime.js';

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

type Zlib = {
  gzip(data: Uint8Array, opts: { level: number; chunkSize: number }, cb: (err: Error | null, out: Uint8Array) => void): void;
  gzipSync(data: Uint8Array, opts: { level: number }): Uint8Array;
  gunzip(data: Uint8Array, cb: (err: Error | null, out: Uint8Array) => void): void;
};

/** Below this, synchronous gzip is cheaper than a thread-pool round trip (~20 µs vs ~90 µs). */
const SYNC_GZIP_MAX_BYTES = 64 * 1024;
/** Output buffer bounds for thread-pool gzip (zlib's default is 16 KiB). */
const MIN_CHUNK = 64 * 1024;
const MAX_CHUNK = 4 * 1024 * 1024;

/**
 * Node's zlib when there is one, fetched with `process.getBuiltinModule` on the first (de)compression
 * (not at import: loading it is ~1 ms of a cold start), so edge bundles never see a Node import;
 * it compresses on the thread pool, off the event loop.
 */
const nodeZlib = () => nodeBuiltin<Zlib>('node:zlib');

/**
 * Gzips a batch. Level 1: span batches are repetitive, so it keeps most of the size win for a
 * fraction of level 6's CPU (the exporter runs in the app's process).
 */
export async function gzip(data: Uint8Array): Promise<Uint8Array> {
  const zlib = nodeZlib();
  if (zlib) {
    if (data.byteLength <= SYNC_GZIP_MAX_BYTES) return zlib.gzipSync(data, { level: 1 });
    // Each full output chunk is a round trip to the event loop, and the chunks are copied into
    // one buffer at the end: half the input holds a level-1 span batch's output in one chunk
    // (a 240 KB batch: 171 instead of 334 µs of main-thread CPU, measured in issue 16 at 706ffb7).
    const chunkSize = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, data.byteLength >>> 1));
    return new Promise((resolve, reject) => zlib.gzip(data, { level: 1, chunkSize }, (err, out) => (err ? reject(err) : resolve(out))));
  }
  // Through globalThis so edge bundlers do not flag a Node.js API: gzip is never used there.
  return throughStream(data, new (globalThis as { CompressionStream?: typeof CompressionStream }).CompressionStream!('gzip'));
}

/** Reverses `gzip` (only needed to split a batch the server refused as too large). */
export async function gunzip(data: Uint8Array): Promise<Uint8Array> {
  const zlib = nodeZlib();
  if (zlib) return new Promise((resolve, reject) => zlib.gunzip(data, (err, out) => (err ? reject(err) : resolve(out))));
  return throughStream(data, new (globalThis as { DecompressionStream?: typeof DecompressionStream }).DecompressionStream!('gzip'));
}

/** `data` through a web (de)compression stream, where Node's zlib is not there. */
async function throughStream(data: Uint8Array, transform: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([data as BlobPart]).stream().pipeThrough(transform)).arrayBuffer());
}
