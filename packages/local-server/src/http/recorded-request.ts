/**
 * Turns an incoming API request into a {@link RecordedRequest}: its body read (up to the size
 * limit), its content encoding undone and, when it is JSON, parsed.
 */
import type { IncomingMessage } from 'node:http';
import type { RecordedRequest, RequestAuth } from '../types.js';
import { BodyTooLargeError, contentEncoding, decodeContent, headerValue, parseJsonBody, queryRecord, readBody } from './body.js';

/** The request as recorded, and what went wrong reading its body, if anything. */
export interface ReadRequest {
  record: RecordedRequest;
  /** The body is larger than the limit (answer 413), or the client went away mid-body (`gone`). */
  failed?: BodyTooLargeError | 'gone';
  /** The content encoding could not be undone: a 400, once faults had their chance. */
  bodyError?: string;
}

/** Reads the request; `record.receivedAt` is when its body had been read. */
export async function readRequest(req: IncomingMessage, url: URL, auth: RequestAuth, maxBodyBytes: number): Promise<ReadRequest> {
  const record: RecordedRequest = {
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
    receivedAt: 0,
  };
  try {
    record.rawBody = await readBody(req, maxBodyBytes);
  } catch (err) {
    record.receivedAt = Date.now();
    return { record, failed: err instanceof BodyTooLargeError ? err : 'gone' };
  }
  record.receivedAt = Date.now();

  let bodyError: string | undefined;
  const encoding = contentEncoding(headerValue(req.headers['content-encoding']));
  if (encoding === undefined) {
    record.body = record.rawBody;
    bodyError = `unsupported Content-Encoding ${JSON.stringify(req.headers['content-encoding'])}`;
  } else {
    try {
      record.body = await decodeContent(record.rawBody, encoding);
    } catch (err) {
      record.body = record.rawBody;
      bodyError = `cannot decode ${encoding} body: ${(err as Error).message}`;
    }
  }
  const json = bodyError ? undefined : parseJsonBody(record.body, headerValue(req.headers['content-type']));
  if (json !== undefined) record.json = json;
  return bodyError ? { record, bodyError } : { record };
}
