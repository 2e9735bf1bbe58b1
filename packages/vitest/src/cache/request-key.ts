/**
 * What identifies a recorded call: its method, its URL (credentials in the query replaced) and its
 * body in a canonical form (JSON with its keys sorted, so two SDK versions that order keys
 * differently still hit). Headers are not part of it and never stored: that is where API keys are.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_REDACT_KEY_SET, isRedactedKey } from '@obs/core/kit';

/** A request as the cassette keeps it. */
export interface RecordedRequest {
  method: string;
  /** The URL, with the values of credential-like query parameters replaced by `REDACTED`. */
  url: string;
  /** The body: parsed JSON, text, or `{ sha256, bytes }` for binary. Absent without a body. */
  body?: unknown;
}

/** A request with its cassette key. */
export interface KeyedRequest extends RecordedRequest {
  key: string;
}

/** Query parameters that carry a key in some APIs (`?key=` in Google's), beyond the redaction list. */
const QUERY_CREDENTIALS = new Set(['key', 'sig', 'signature']);

/** The request's key and its stored form. */
export function keyRequest(method: string, url: string, body: Uint8Array | undefined): KeyedRequest {
  const cleanUrl = redactUrl(url);
  const stored = storedBody(body);
  const canonical = stored === undefined ? '' : JSON.stringify(sortKeys(stored));
  const key = createHash('sha256').update(`${method.toUpperCase()} ${cleanUrl}\n${canonical}`).digest('hex').slice(0, 24);
  return { key, method: method.toUpperCase(), url: cleanUrl, ...(stored !== undefined ? { body: stored } : {}) };
}

/** `METHOD url` with a short body fingerprint: how a message names a call. */
export function describeCall(request: KeyedRequest): string {
  return `${request.method} ${request.url}${request.body === undefined ? '' : ` (body ${request.key.slice(0, 12)})`}`;
}

function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  parsed.username = '';
  parsed.password = '';
  for (const name of [...new Set(parsed.searchParams.keys())]) {
    if (QUERY_CREDENTIALS.has(name.toLowerCase()) || isRedactedKey(name, DEFAULT_REDACT_KEY_SET)) parsed.searchParams.set(name, 'REDACTED');
  }
  return parsed.toString();
}

function storedBody(body: Uint8Array | undefined): unknown {
  if (body === undefined || body.byteLength === 0) return undefined;
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const text = buffer.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(buffer)) {
    return { sha256: createHash('sha256').update(buffer).digest('hex'), bytes: buffer.byteLength };
  }
  try {
    return sortKeys(JSON.parse(text));
  } catch {
    return text;
  }
}

/** The value with every object's keys in sorted order (arrays keep theirs). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
  return out;
}
