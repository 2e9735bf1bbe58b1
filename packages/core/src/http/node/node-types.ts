/**
 * The parts of Node's `IncomingMessage` and `ServerResponse` the layer reads, structurally, so
 * the layer has no runtime import of `node:http` (the same entry serves the edge runtime) and
 * framework wrappers with the same shape fit.
 */
export interface NodeRequestLike {
  method?: string;
  url?: string;
  /** Express keeps the full URL here while `url` is rewritten under a mount. */
  originalUrl?: string;
  /** Parsed body, when a body parser ran. */
  body?: unknown;
  /** Parsed query, when the framework parses it. */
  query?: unknown;
}

export interface NodeResponseLike {
  statusCode: number;
  headersSent: boolean;
  /** All data was flushed to the system. */
  writableFinished: boolean;
  /**
   * The app ended the response (`end()` was called). False on close, with `writableFinished`,
   * means the client went away first.
   */
  writableEnded?: boolean;
  setHeader(name: string, value: string): unknown;
  getHeader(name: string): unknown;
  on(event: 'close', listener: (this: NodeResponseLike) => void): unknown;
  /** The request this response answers (Node sets it). */
  req?: object;
}

/** URL path without the query string; `/` when there is none. */
export function pathOf(url: unknown): string {
  if (typeof url !== 'string' || url === '') return '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** A path segment with its `%xx` escapes decoded; as it is when they are malformed. */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
