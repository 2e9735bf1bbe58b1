import { Transform, type Readable } from 'node:stream';
import type { StreamableFile } from '@nestjs/common';
import { isTextContentType, type RequestObservation } from '@obs/core/http';
import { safeStringify } from '@obs/core/kit';

/** Whether a handler result is a `StreamableFile` (duck-typed: another copy of `@nestjs/common` may have made it). */
export function isStreamableFile(value: unknown): value is StreamableFile {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as StreamableFile).getStream === 'function' &&
    typeof (value as StreamableFile).getHeaders === 'function'
  );
}

/**
 * The text of one `@Sse()` event for the reassembled output: its `data` as sent (strings as
 * they are, so token streams read as one text; objects as one JSON line each).
 */
export function sseEventText(event: unknown): string | undefined {
  if (event === null || event === undefined) return undefined;
  if (typeof event !== 'object') return String(event);
  const data = (event as { data?: unknown }).data;
  if (data === undefined || data === null) return undefined;
  return typeof data === 'string' ? data : `${safeStringify(data)}\n`;
}

/**
 * Records what a `StreamableFile` sends. Text content is collected as it streams, through a
 * pass-through tap the platform reads instead of the file's stream (capped by core, nothing
 * buffered beyond the stream's own high-water mark); other content is described, not read.
 */
export function captureStreamableFile(file: StreamableFile, ro: RequestObservation, res: unknown): void {
  const { type, length, disposition } = file.getHeaders();
  if (!isTextContentType(type)) {
    ro.setOutput(describeFile(type, length, disposition), res);
    return;
  }
  const source = file.getStream() as Readable;
  const tap = new Transform({
    transform(chunk, _encoding, callback) {
      ro.addOutputChunk(chunk, res, type);
      callback(null, chunk);
    },
  });
  // As StreamableFile does for its own stream: an error before the platform listens must not crash.
  tap.on('error', () => undefined);
  source.on('error', (err) => tap.destroy(err));
  // The platform destroys what it reads when the client leaves: release the file too.
  tap.on('close', () => {
    if (!source.readableEnded && !source.destroyed) source.destroy();
  });
  source.pipe(tap);
  // Patched on the instance, so the platform, Nest's stream bookkeeping and error handlers
  // still see the same StreamableFile.
  Object.defineProperty(file, 'getStream', { value: () => tap, configurable: true, writable: true });
}

function describeFile(type: string | undefined, length: number | undefined, disposition: string | string[] | undefined): string {
  const parts = [`file${type ? ` ${type}` : ''}`];
  if (typeof length === 'number') parts.push(`${length} bytes`);
  if (disposition) parts.push(String(disposition));
  return `[${parts.join(', ')}]`;
}
