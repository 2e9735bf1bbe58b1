/**
 * What a route answers (status, body, headers) and how it is written to the response.
 */
import type { ServerResponse } from 'node:http';

/** A route's answer: a string or Buffer body is sent as is, anything else as JSON. */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A JSON answer. */
export function answer(status: number, body?: unknown, headers?: Record<string, string>): Answer {
  return headers ? { status, body, headers } : { status, body };
}

/** A 4xx with a message. */
export function refuse(status: number, message: string): Answer {
  return { status, body: { message } };
}

/** The JSON object body of a request, or `undefined` when it is not one. */
export function objectBody(json: unknown): Record<string, unknown> | undefined {
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
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
