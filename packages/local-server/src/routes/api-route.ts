/**
 * The shape of a public API route: it reads the recorded request (body already read and decoded)
 * and answers; the server writes the answer.
 */
import type { Answer } from '../http/answer.js';
import type { Route } from '../http/router.js';
import type { RecordedRequest } from '../types.js';

/** Answers one public API request. */
export type ApiHandler = (record: RecordedRequest, params: Record<string, string>) => Answer | Promise<Answer>;

/** A public API route. */
export type ApiRoute = Route<ApiHandler>;
