/**
 * Random trace and span ids from a pool of random bytes refilled 4 KiB at a time (`node:crypto`
 * on Node.js, Web Crypto elsewhere) and a byte-to-hex table: no `Math.random()` per byte as the
 * SDK's generator does.
 */
import { nodeBuiltin } from '../../util/runtime.js';

const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let used = POOL_SIZE;
/** Char codes of the hex digits. */
const DIGITS = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
/**
 * Char codes of one id, turned into a string in one call: concatenating 2-digit strings makes a
 * rope of cons strings that V8 flattens (another copy) on the first read, e.g. by the encoder
 * (3 ids: 250 instead of 405 ns, Node 22).
 */
const codes16: number[] = new Array(16).fill(0);
const codes32: number[] = new Array(32).fill(0);

let fill: ((bytes: Uint8Array) => void) | undefined;

/**
 * `node:crypto`'s `randomFillSync` on Node.js: the first read of `globalThis.crypto` there loads
 * Web Crypto's modules (~1 ms of a cold start). Web Crypto elsewhere, or if that is refused.
 */
function randomFill(): (bytes: Uint8Array) => void {
  const randomFillSync = nodeBuiltin<{ randomFillSync?: (b: Uint8Array) => void }>('node:crypto')?.randomFillSync;
  if (typeof randomFillSync === 'function') return (bytes) => randomFillSync(bytes);
  return (bytes) => globalThis.crypto.getRandomValues(bytes);
}

function take(bytes: number): string {
  if (used + bytes > POOL_SIZE) {
    fill ??= randomFill();
    fill(pool);
    used = 0;
  }
  const codes = bytes === 8 ? codes16 : codes32;
  let zero = true;
  for (let i = used, end = used + bytes, j = 0; i < end; i++) {
    const b = pool[i]!;
    if (b !== 0) zero = false;
    codes[j++] = DIGITS[b >>> 4]!;
    codes[j++] = DIGITS[b & 15]!;
  }
  used += bytes;
  // An all-zero id is invalid in W3C trace context (1 in 2^64 at worst): never send one.
  return zero ? take(bytes) : String.fromCharCode.apply(null, codes);
}

/** A new 16-byte trace id (32 hex). */
export function newTraceId(): string {
  return take(16);
}

/** A new 8-byte span id (16 hex). */
export function newSpanId(): string {
  return take(8);
}
