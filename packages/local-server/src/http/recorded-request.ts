/**
 * An incoming API request as a {@link RecordedRequest}: made from its request line and headers
 * alone (what the key check and a refusal need), then its body read (up to the size limit), its
 * content encoding undone (up to the same limit) and, when it is JSON, parsed.
 */
import type { IncomingMessage } from 'node:http';
import type { RecordedRequest, RequestAuth } from '../types.js';
import { BodyTooLargeError, contentEncoding, decodeContent, headerValue, parseJsonBody, queryRecord, readBody } from './body.js';

/** What went wrong reading a body, if anything. */
export interface BodyOutcome {
  /** The body is larger than the limit, as sent or decoded (answer 413), or the client went away mid-body (`gone`). */
  failed?: BodyTooLargeError | 'gone';
  /** The content encoding could not be undone: a 400, once faults had their chance. */
  bodyError?: string;
}

/** The request as recorded before its body is read (`receivedAt`: now; the body empty). */
export function requestRecord(req: IncomingMessage, url: URL, auth: RequestAuth): RecordedRequest {
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: url.pathname,
    query: queryRecord(url.searchParams),
    url: req.url ?? '/',
    headers: req.headers,
    rawHeaders: req.rawHeaders,
    rawBody: Buffer.alloc(0),
    body: Buffer.alloc(0),
    status: 0,
    auth,
    receivedAt: Date.now(),
  };
}

/** Reads the body into the record; `record.receivedAt` becomes when it had been read. */
export async function readRequestBody(req: IncomingMessage, record: RecordedRequest, maxBodyBytes: number): Promise<BodyOutcome> {
  try {
    record.rawBody = await readBody(req, maxBodyBytes);
  } catch (err) {
    record.receivedAt = Date.now();
    return { failed: err instanceof BodyTooLargeError ? err : 'gone' };
  }
  record.receivedAt = Date.now();

  let bodyError: string | undefined;
  const encoding = contentEncoding(headerValue(req.headers['content-encoding']));
  if (encoding === undefined) {
    record.body = record.rawBody;
    bodyError = `unsupported Content-Encoding ${JSON.stringify(req.headers['content-encoding'])}`;
  } else {
    try {
      record.body = await decodeContent(record.rawBody, encoding, maxBodyBytes);
    } catch (err) {
      if (err instanceof BodyTooLargeError) return { failed: err };
      record.body = record.rawBody;
      bodyError = `cannot decode ${encoding} body: ${(err as Error).message}`;
    }
  }
  const json = bodyError ? undefined : parseJsonBody(record.body, headerValue(req.headers['content-type']));
  if (json !== undefined) record.json = json;
  return bodyError ? { bodyError } : {};
}
