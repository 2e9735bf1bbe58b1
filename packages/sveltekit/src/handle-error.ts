/**
 * The `handleError` hook: an unexpected error of a load, action or endpoint recorded on the
 * request's root, the app's own hook run as before.
 */
import { trace } from '@opentelemetry/api';
import { recordErrorOnSpan } from '@obs/core/kit';
import type { RequestEvent } from '@sveltejs/kit';
import { guard } from './guard.js';
import { requestOf } from './request-observation.js';

/** What SvelteKit passes `handleError` (2.x and 3.x). */
export interface ObsHandleErrorInput {
  error: unknown;
  event: RequestEvent;
  status?: number;
  message?: string;
  /** 3.x: `app`, `framework`, `validation` or `unknown`. */
  kind?: string;
}

/** SvelteKit's `HandleServerError` (in `@sveltejs/kit` 2.x, `@sveltejs/kit/hooks` 3.x), structurally. */
// biome-ignore lint/suspicious/noExplicitAny: the input and result types are the app's (App.Error)
export type ObsHandleError = (input: any) => any;

/**
 * The `handleError` hook: `export const handleError = obsHandleError()` in `src/hooks.server.ts`,
 * or around your own: `obsHandleError(({ error, event }) => ({ message: 'Whoops' }))`. SvelteKit
 * calls it for each unexpected error of a load function, form action or endpoint, then answers
 * 500 with its error page: the error is recorded on the request's root (the 404s SvelteKit
 * reports as `framework` errors are answers, not failures). Your hook's result is returned unchanged.
 */
export function obsHandleError(handler?: ObsHandleError): ObsHandleError {
  return function obsHandleError(input: ObsHandleErrorInput) {
    // Never what fails the error page.
    guard.run(() => record(input), undefined, 'the error is not recorded');
    return handler?.(input);
  };
}

function record(input: ObsHandleErrorInput): void {
  const { error, event, kind } = input;
  const status = input.status ?? (kind === 'framework' ? (error as { status?: number }).status : undefined);
  if (kind === 'framework' || kind === 'validation' || (typeof status === 'number' && status < 500)) return;
  const request = requestOf(event);
  if (request) return request.ro.noteError(error);
  const active = trace.getActiveSpan();
  if (active?.isRecording()) recordErrorOnSpan(active, error);
}
