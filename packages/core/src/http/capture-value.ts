import { truncateText } from '../util/capture.js';
import { safeStringify } from '../util/serialize.js';
import { redact, redactJsonText } from './redact.js';

const utf8 = new TextDecoder();

/**
 * The attribute text of a captured input or output: redacted, described when binary,
 * serialised, and cut at `maxChars` with a visible marker.
 */
export function captureValue(value: unknown, redactKeys: Set<string>, maxChars: number, contentType?: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (isBinary(value)) {
    // Text sent as bytes (res.send(Buffer) with a text content type) is recorded as text.
    if (!contentType || !isTextContentType(contentType)) return describeBinary(value, contentType);
    value = utf8.decode(value);
  }
  if (typeof value === 'string') {
    if (redactKeys.size === 0 || !looksLikeJson(value, contentType)) return truncateText(value, maxChars);
    const parsed = tryParse(value);
    // JSON that does not parse (cut at a cap upstream) is redacted by key pattern instead.
    const text = parsed !== undefined ? safeStringify(redact(parsed, redactKeys)) : redactJsonText(value, redactKeys);
    return truncateText(text, maxChars);
  }
  return truncateText(safeStringify(redact(value, redactKeys)), maxChars);
}

/** Whether a value is raw bytes (Buffer, typed array, ArrayBuffer). */
export function isBinary(value: unknown): value is ArrayBufferView | ArrayBuffer {
  return ArrayBuffer.isView(value) || value instanceof ArrayBuffer;
}

/**
 * Binary bodies are described, not dumped: `[binary 1234 bytes, image/png]`, with the content
 * encoding when compressed, and without a size when it is not known.
 */
export function describeBinary(value: ArrayBufferView | ArrayBuffer | number | undefined, contentType?: string, encoding?: string): string {
  const size = typeof value === 'number' ? value : value?.byteLength;
  const details = [contentType, encoding].filter(Boolean).join(', ');
  return `[binary${size === undefined || !Number.isFinite(size) ? '' : ` ${size} bytes`}${details ? `, ${details}` : ''}]`;
}

/** Whether a content type is text we can record (JSON, text/*, SSE, forms, XML). */
export function isTextContentType(contentType: string | undefined): boolean {
  if (!contentType) return true;
  return /json|text\/|event-stream|x-www-form-urlencoded|xml|javascript|graphql/i.test(contentType);
}

function looksLikeJson(s: string, contentType?: string): boolean {
  if (contentType && /json/i.test(contentType)) return true;
  const c = s.trimStart()[0];
  return c === '{' || c === '[';
}

function tryParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
