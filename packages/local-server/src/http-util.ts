/**
 * Small HTTP helpers: body reading, content decoding, Basic auth, JSON answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import type { RequestAuth } from './types.js';

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);
const brotliAsync = promisify(brotliDecompress);

/** Thrown by {@link readBody} when the body exceeds the limit. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/** Reads the whole request body. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      // Past the limit the rest is read and discarded, so the client reads the 413 instead of
      // a reset connection (as a real proxy's body limit answers).
      if (size > maxBytes) {
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (failed) return;
      if (size > maxBytes) reject(new BodyTooLargeError(`request body larger than ${maxBytes} bytes`));
      else resolve(Buffer.concat(chunks, size));
    });
    req.on('error', (err) => {
      if (!failed) {
        failed = true;
        reject(err);
      }
    });
  });
}

/** The `Content-Encoding` values understood by the server, normalised; undefined when unsupported. */
export function contentEncoding(header: string | undefined): 'identity' | 'gzip' | 'deflate' | 'br' | undefined {
  const value = (header ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity' || value === 'none') return 'identity';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'deflate' || value === 'br') return value;
  return undefined;
}

/** Undoes a content encoding. */
export async function decodeContent(raw: Buffer, encoding: 'identity' | 'gzip' | 'deflate' | 'br'): Promise<Buffer> {
  switch (encoding) {
    case 'identity':
      return raw;
    case 'gzip':
      return gunzipAsync(raw);
    case 'deflate':
      return inflateAsync(raw);
    case 'br':
      return brotliAsync(raw);
  }
}

/** Classifies the Authorization header against the server's keys. */
export function parseAuth(header: string | undefined, publicKey: string, secretKey: string): RequestAuth {
  if (!header) return 'none';
  const match = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!match) return 'invalid';
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'invalid';
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (user !== publicKey) return 'invalid';
  if (password === secretKey) return 'secret';
  if (password === '') return 'public-only';
  return 'invalid';
}

/** Parses a body as JSON when its content type says JSON (or is absent); undefined otherwise. */
export function parseJsonBody(body: Buffer, contentType: string | undefined): unknown {
  const type = (contentType ?? '').toLowerCase();
  if (body.length === 0 || !(type === '' || type.includes('json'))) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Parses the query string into a record (for a repeated name, the last value wins). */
export function queryRecord(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) out[k] = v;
  return out;
}

/** Writes an answer: a string or Buffer as is, anything else as JSON. */
export function writeAnswer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  if (status === 204 || status === 304) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  let payload: string | Buffer;
  let type: string;
  if (body === undefined) {
    payload = '';
    type = 'application/json';
  } else if (Buffer.isBuffer(body)) {
    payload = body;
    type = 'application/octet-stream';
  } else if (typeof body === 'string') {
    payload = body;
    type = 'text/plain; charset=utf-8';
  } else {
    payload = JSON.stringify(body);
    type = 'application/json';
  }
  res.writeHead(status, {
    'content-type': type,
    'content-length': String(Buffer.byteLength(payload)),
    ...headers,
  });
  res.end(payload);
}
