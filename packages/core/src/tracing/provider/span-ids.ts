/**
 * Random trace and span ids from a pool of random bytes refilled 4 KiB at a time (Web Crypto,
 * so it runs in Node.js and edge runtimes alike) and a byte-to-hex table: no `Math.random()`
 * per byte as the SDK's generator does.
 */
const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let used = POOL_SIZE;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function take(bytes: number): string {
  if (used + bytes > POOL_SIZE) {
    globalThis.crypto.getRandomValues(pool);
    used = 0;
  }
  let id = '';
  let zero = true;
  for (let i = used, end = used + bytes; i < end; i++) {
    const b = pool[i]!;
    if (b !== 0) zero = false;
    id += HEX[b];
  }
  used += bytes;
  // An all-zero id is invalid in W3C trace context (1 in 2^64 at worst): never send one.
  return zero ? take(bytes) : id;
}

/** A new 16-byte trace id (32 hex). */
export function newTraceId(): string {
  return take(16);
}

/** A new 8-byte span id (16 hex). */
export function newSpanId(): string {
  return take(8);
}
