import { trace } from '@opentelemetry/api';
import { warnUnreadable } from './hostile-input.js';

/** Trace id of the active span, if any. */
export function getActiveTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}

/** Span (observation) id of the active span, if any. */
export function getActiveSpanId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().spanId;
}

/**
 * A W3C trace id (32 hex). With a `seed` it is deterministic (SHA-256 of the seed), so an
 * external id (a request id, a conversation id) maps to the same trace every time.
 * A seed that cannot be read (a Proxy that throws) gives a random id, with one warning: it never rejects.
 */
export async function createTraceId(seed?: string): Promise<string> {
  if (seed !== undefined && seed !== null) {
    try {
      return toHex((await seedDigest(seed)).slice(0, 16));
    } catch (err) {
      warnUnreadable('createTraceId seed', err);
    }
  }
  return toHex(crypto.getRandomValues(new Uint8Array(16)));
}

/** Binary seeds above this are hashed piece by piece, so no single step holds the event loop. */
const SEED_PIECE_BYTES = 1024 * 1024;

/**
 * SHA-256 of the seed's text, or of its bytes when it is binary. Bytes past 1 MB are hashed in
 * 1 MB pieces (SHA-256 of the pieces' digests): deterministic, and never one long copy.
 */
async function seedDigest(seed: unknown): Promise<Uint8Array> {
  const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
  if (!ArrayBuffer.isView(seed)) return sha256(new TextEncoder().encode(String(seed)));
  const bytes = new Uint8Array(seed.buffer, seed.byteOffset, seed.byteLength);
  if (bytes.byteLength <= SEED_PIECE_BYTES) return sha256(bytes);
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.byteLength; at += SEED_PIECE_BYTES) pieces.push(await sha256(bytes.subarray(at, at + SEED_PIECE_BYTES)));
  const joined = new Uint8Array(pieces.length * 32);
  for (const [i, piece] of pieces.entries()) joined.set(piece, i * 32);
  return sha256(joined);
}

function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}
