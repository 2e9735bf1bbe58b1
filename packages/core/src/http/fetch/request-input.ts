import { describeBinary, isTextContentType } from '../capture-value.js';

/** Multipart bodies up to this size are parsed for the input; larger ones are only described. */
const MAX_MULTIPART_BYTES = 1024 * 1024;

/** What the request asked: its query now, its body once a copy of it has been read. */
export interface RequestInput {
  query: Record<string, string | string[]> | undefined;
  /** Never rejects; undefined when there is no body or it cannot be read. */
  body: Promise<unknown>;
}

/**
 * Reads what a request asked without taking its body from the handler: the body is read from a clone
 * (a tee of the stream), concurrently with the handler, and only up to the capture cap, after which the
 * copy is cancelled so nothing more is buffered for it. Text (JSON included) is kept as text, forms become
 * objects, multipart files are described, binary bodies are described, not read.
 */
export function readRequestInput(req: Request, maxChars: number): RequestInput {
  return { query: queryOf(req.url), body: readBody(req, maxChars) };
}

/** The query of a request's URL as an object, or undefined when it has none. */
export function queryOf(url: string): Record<string, string | string[]> | undefined {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return undefined;
  }
  return entriesToObject(params);
}

async function readBody(req: Request, maxChars: number): Promise<unknown> {
  try {
    if (!req.body || req.bodyUsed || req.method === 'GET' || req.method === 'HEAD') return undefined;
    const contentType = req.headers.get('content-type') ?? '';
    const length = Number(req.headers.get('content-length') ?? NaN);
    if (/multipart\/form-data/i.test(contentType)) {
      if (!(length <= MAX_MULTIPART_BYTES)) return describeBinary(length, 'multipart/form-data');
      return formToObject(await req.clone().formData());
    }
    if (contentType && !isTextContentType(contentType)) {
      return describeBinary(length, contentType);
    }
    const { text, truncated } = await readText(req.clone(), maxChars);
    if (text === '') return undefined;
    if (!truncated && /x-www-form-urlencoded/i.test(contentType)) return entriesToObject(new URLSearchParams(text));
    // JSON stays text: core's capture parses it to redact, then serialises it once.
    return text;
  } catch {
    return undefined;
  }
}

/**
 * Reads the copy's text. Past `maxChars * 4` bytes (more than any cap can keep) the copy is cancelled
 * and the text so far returned: core's capture cuts it at the cap with its marker.
 */
async function readText(copy: Request, maxChars: number): Promise<{ text: string; truncated: boolean }> {
  const decoder = new TextDecoder();
  const reader = copy.body!.getReader();
  const parts: string[] = [];
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(decoder.decode(value, { stream: true }));
    seen += value.byteLength;
    if (seen > maxChars * 4) {
      await reader.cancel().catch(() => undefined);
      return { text: parts.join(''), truncated: true };
    }
  }
  parts.push(decoder.decode());
  return { text: parts.join(''), truncated: false };
}

function entriesToObject(entries: Iterable<[string, string]>): Record<string, string | string[]> | undefined {
  const out: Record<string, string | string[]> = {};
  let any = false;
  for (const [key, value] of entries) {
    any = true;
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return any ? out : undefined;
}

function formToObject(form: FormData): Record<string, unknown> | undefined {
  const pairs: [string, string][] = [];
  form.forEach((value, key) => {
    pairs.push([
      key,
      typeof value === 'string' ? value : `[file ${value.name || 'blob'}, ${value.size} bytes${value.type ? `, ${value.type}` : ''}]`,
    ]);
  });
  return entriesToObject(pairs);
}
