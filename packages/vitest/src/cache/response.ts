/**
 * Answers between the wire and the cassette: headers cleaned of credentials and of what only the
 * transport needs, bodies stored decompressed (JSON parsed, text as text, anything else base64).
 */
import * as zlib from 'node:zlib';
import { DEFAULT_REDACT_KEY_SET, isRedactedKey } from '@obs/core/kit';
import type { RecordedResponse } from './cassette.js';

/**
 * Headers that describe this connection and moment, not the answer: made again on replay (length)
 * or left out (a `date` would change the cassette at every recording).
 */
const TRANSPORT = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/** Response headers as the cassette keeps them: no cookies or credential-like names, no transport headers, no date. */
export function storedHeaders(pairs: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, value] of pairs) {
    const name = rawName.toLowerCase();
    if (TRANSPORT.has(name) || isRedactedKey(name, DEFAULT_REDACT_KEY_SET)) continue;
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  }
  return out;
}

/** The answer as recorded: the body decoded from its `content-encoding`, then kept in its most readable form. */
export function recordedResponse(
  status: number,
  statusText: string | undefined,
  headers: Array<[string, string]>,
  body: Buffer,
): RecordedResponse {
  const encoding = headers.find(([n]) => n.toLowerCase() === 'content-encoding')?.[1];
  const plain = decode(body, encoding);
  const stored = storedHeaders(headers);
  const type = stored['content-type'] ?? '';
  const response: RecordedResponse = { status, ...(statusText ? { statusText } : {}), headers: stored };
  const text = plain.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(plain)) return { ...response, base64: plain.toString('base64') };
  if (/\bjson\b/i.test(type) && text.trim() !== '') {
    try {
      return { ...response, json: JSON.parse(text) };
    } catch {
      // Not JSON after all: kept as text.
    }
  }
  return { ...response, text };
}

/** The bytes a recorded answer replays. */
export function responseBytes(response: RecordedResponse): Buffer {
  if (response.base64 !== undefined) return Buffer.from(response.base64, 'base64');
  if (response.text !== undefined) return Buffer.from(response.text, 'utf8');
  if ('json' in response) return Buffer.from(JSON.stringify(response.json), 'utf8');
  return Buffer.alloc(0);
}

/** Node.js 22.15+ and 23.8+ decode zstd. */
const zstd = (zlib as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;

function decode(body: Buffer, encoding: string | undefined): Buffer {
  let out = body;
  const codings = (encoding ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity');
  // Applied in order, so undone in reverse.
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') out = zlib.gunzipSync(out);
    else if (coding === 'deflate') out = zlib.inflateSync(out);
    else if (coding === 'br') out = zlib.brotliDecompressSync(out);
    else if (coding === 'zstd' && zstd) out = zstd(out);
    else throw new Error(`cannot record an answer in content-encoding ${coding}`);
  }
  return out;
}
