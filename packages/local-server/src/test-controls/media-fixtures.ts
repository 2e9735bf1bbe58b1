/**
 * What media tests need around the server: real PNG images of a chosen size (random noise, so
 * they barely compress), and a read of what arrived: the media references in the spans, and the
 * longest base64 left anywhere in them (the SDK must have replaced every medium).
 */
import { crc32, deflateSync } from 'node:zlib';
import type { DecodedSpan } from '../types.js';

/** A valid PNG of `width` x `height` pixels of noise from `seed` (the same seed, the same bytes); ~3 bytes per pixel. */
export function noisePng(width: number, height: number, seed = 1): Buffer {
  let state = seed >>> 0 || 1;
  const next = () => {
    // xorshift32: deterministic noise
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    rows[row] = 0; // filter: none
    for (let x = 0; x < width * 3; x++) rows[row + 1 + x] = next() & 0xff;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** `png` as a base64 data URI. */
export function pngDataUri(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** A media reference found in a span: `@@@obsMedia:type=…|id=…|source=…@@@`. */
export interface FoundMediaReference {
  type: string;
  id: string;
  source: string;
  /** The whole reference string. */
  text: string;
}

const REFERENCE = /@@@obsMedia:type=([^|@]+)\|id=([^|@]+)\|source=([^|@]+)@@@/g;

/** Every media reference in `text`. */
export function mediaReferencesIn(text: string): FoundMediaReference[] {
  return [...text.matchAll(REFERENCE)].map((m) => ({ type: m[1]!, id: m[2]!, source: m[3]!, text: m[0] }));
}

/** The longest run of base64 characters in any string attribute (array items included) of `spans`. */
export function longestBase64Run(spans: readonly DecodedSpan[]): number {
  let longest = 0;
  for (const span of spans) {
    for (const value of Object.values(span.attributes)) {
      for (const text of Array.isArray(value) ? value : [value]) {
        if (typeof text !== 'string') continue;
        for (const m of text.matchAll(/[A-Za-z0-9+/=]{64,}/g)) longest = Math.max(longest, m[0].length);
      }
    }
  }
  return longest;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])), 8 + data.length);
  return out;
}
