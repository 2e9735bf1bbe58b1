/**
 * Reading a request's body: the size limit, content decoding (its output held to the same
 * limit, so a small compressed body cannot inflate into gigabytes), JSON parsing, the query string.
 */
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);
const brotliAsync = promisify(brotliDecompress);

/** Thrown by {@link readBody} and {@link decodeContent} when the body, as sent or decoded, exceeds the limit. */
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

/**
 * Undoes a content encoding; zlib stops as soon as the output would pass `maxBytes`.
 *
 * @throws BodyTooLargeError when the decoded body is larger than `maxBytes`
 */
export async function decodeContent(raw: Buffer, encoding: 'identity' | 'gzip' | 'deflate' | 'br', maxBytes: number): Promise<Buffer> {
  const options = { maxOutputLength: Math.max(1, maxBytes) };
  try {
    switch (encoding) {
      case 'identity':
        return raw;
      case 'gzip':
        return await gunzipAsync(raw, options);
      case 'deflate':
        return await inflateAsync(raw, options);
      case 'br':
        return await brotliAsync(raw, options);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new BodyTooLargeError(`request body larger than ${maxBytes} bytes once its ${encoding} encoding is undone`);
    }
    throw err;
  }
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

/** The first value of a header that may repeat. */
export function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
