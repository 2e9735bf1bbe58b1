/**
 * The shape of a viewer route: the page's files and its reads. They are not SDK traffic, so they
 * are neither recorded nor faulted, and their body is never read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer } from '../http/answer.js';
import type { Route } from '../http/router.js';

/** A request to the viewer. */
export interface ViewerRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Headers every viewer response carries (no caching, the content security policy, no sniffing). */
  headers: Readonly<Record<string, string>>;
}

/** Answers a viewer request; `undefined` when it wrote the response itself (an event stream). */
export type ViewerHandler = (request: ViewerRequest, params: Record<string, string>) => Answer | Promise<Answer> | undefined;

/** A viewer route. */
export type ViewerRoute = Route<ViewerHandler>;
