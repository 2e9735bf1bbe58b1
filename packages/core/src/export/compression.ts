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

/** Gzips bytes with the platform's CompressionStream (no Node built-ins needed). */
export async function gzip(data: Uint8Array): Promise<Uint8Array> {
  // Through globalThis so edge bundlers do not flag a Node.js API: gzip is never used there.
  const Compression = (globalThis as { CompressionStream?: typeof CompressionStream }).CompressionStream!;
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new Compression('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
