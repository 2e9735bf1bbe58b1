/**
 * The HTTP side of an invocation: the request body as the handler's caller sent it (base64
 * decoded, JSON and forms parsed), and what the handler's result answers (status, body, content
 * type), read the way API Gateway, function URLs and load balancers read it. The trace-id header
 * is added to a copy of the result, never to the handler's own object.
 */
import { isTextContentType } from '@obs/core/http';
import { parsed, type HttpTrigger } from './triggers.js';

/** The request's input: its parsed body, else undefined (the query is recorded then). */
export function requestBody(t: HttpTrigger): unknown {
  const { body } = t;
  if (body === undefined || body === null || body === '') return undefined;
  const contentType = t.headers['content-type'] ?? '';
  const bytes = t.isBase64Encoded ? Buffer.from(body, 'base64') : undefined;
  if (bytes && !isTextContentType(contentType)) return bytes;
  const text = bytes ? bytes.toString('utf8') : body;
  if (/x-www-form-urlencoded/i.test(contentType)) return Object.fromEntries(new URLSearchParams(text));
  return parsed(text);
}

/** What an HTTP result answered. */
export interface HttpAnswer {
  statusCode?: number;
  /** The body as recorded: the JSON value, the text, or bytes. */
  body: unknown;
  contentType?: string;
}

/**
 * What the handler's result answers. A result with a `statusCode` is a response (its body decoded
 * and parsed); anything else is, for an HTTP API (payload 2.0), the JSON body of a 200, and is
 * recorded as it is.
 */
export function answerOf(result: unknown): HttpAnswer {
  if (!isResponse(result)) return { body: result, statusCode: result === undefined ? undefined : 200 };
  const contentType = headerOf(result.headers, 'content-type');
  let body: unknown = result.body;
  if (typeof body === 'string' && result.isBase64Encoded === true) {
    const bytes = Buffer.from(body, 'base64');
    body = isTextContentType(contentType) ? bytes.toString('utf8') : bytes;
  }
  if (typeof body === 'string' && (!contentType || /json/i.test(contentType))) body = parsed(body);
  return { statusCode: Number(result.statusCode) || undefined, body, contentType };
}

/** A copy of the result with `name: value` added to its headers; the result itself when it is no response. */
export function withHeader<R>(result: R, name: string, value: string): R {
  if (!isResponse(result)) return result;
  return { ...result, headers: { ...result.headers, [name]: value } };
}

interface ResponseLike {
  statusCode: number | string;
  headers?: Record<string, unknown>;
  body?: unknown;
  isBase64Encoded?: boolean;
}

function isResponse(result: unknown): result is ResponseLike {
  return typeof result === 'object' && result !== null && 'statusCode' in result;
}

function headerOf(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return String(v);
  return undefined;
}
