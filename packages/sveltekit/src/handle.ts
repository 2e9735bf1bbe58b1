/**
 * The `handle` hook: each request one trace on core's fetch layer, its root named after SvelteKit's
 * route id and started outside SvelteKit's own request span, so SvelteKit's spans nest under it.
 */
import { context, trace } from '@opentelemetry/api';
import { getObsHandle, initObs } from '@obs/core';
import { FetchHttpObserver, type FetchRequest } from '@obs/core/http';
import { warnMisplacedOptions } from '@obs/core/kit';
import type { RequestEvent } from '@sveltejs/kit';
import { guard } from './guard.js';
import type { ObsSvelteKitOptions } from './options.js';
import { remember } from './request-observation.js';

/**
 * SvelteKit's `Handle` (exported by `@sveltejs/kit` in 2.x, `@sveltejs/kit/hooks` in 3.x), as
 * obs's handle uses it: assignable to both.
 */
export type ObsHandle = (input: {
  event: RequestEvent;
  // biome-ignore lint/suspicious/noExplicitAny: SvelteKit's ResolveOptions, which obs never passes
  resolve: (event: RequestEvent, opts?: any) => Response | Promise<Response>;
}) => Promise<Response>;

/** SvelteKit's tracer (its `kit.tracing.server` spans). */
const SVELTEKIT_SCOPE = 'sveltekit';

/**
 * The `handle` hook: `export const handle = obsHandle()` in `src/hooks.server.ts` (or first in
 * `sequence(obsHandle(), ...)`). Each request is one trace whose root is named `METHOD /route/[id]`
 * after SvelteKit's route id, with its input (body or query), its output (streams reassembled as
 * they pass), errors, and `identify(event)`'s user and session on every span of the request: load
 * functions, form actions, `+server` endpoints and the LLM calls inside them. With SvelteKit's own
 * tracing on (`kit.tracing.server`), its `sveltekit.load`, `sveltekit.form_action` and
 * `sveltekit.endpoint` spans are children of the root. Sets tracing up itself on the first request
 * when nothing has (from `OBS_*` and `options.obs`).
 */
export function obsHandle(options: ObsSvelteKitOptions = {}): ObsHandle {
  warnMisplacedOptions('obsHandle', options);
  const { obs: init, ...http } = options;
  const layer = new FetchHttpObserver<Request, RequestEvent>(http, { adapter: '@obs/sveltekit', statusOfThrow });

  const observed = async (event: RequestEvent, next: () => Promise<Response>): Promise<Response> => {
    if (!getObsHandle()) initObs(init);
    const request = context.with(outsideSvelteKitSpans(), () => start(layer, event));
    if (!request) return next();
    remember(event, request);
    return request.run(next);
  };

  return function obsHandle({ event, resolve }) {
    return guard.around(
      (next) => observed(event, next),
      () => Promise.resolve(resolve(event)),
    );
  };
}

function start(layer: FetchHttpObserver<Request, RequestEvent>, event: RequestEvent): FetchRequest<Request, RequestEvent> | undefined {
  const route = event.route?.id ?? undefined;
  const request = layer.start(event.request, { path: event.url.pathname, route, subject: event });
  if (request && route === undefined) request.ro.setUnmatched();
  return request;
}

/**
 * The active context without SvelteKit's `sveltekit.handle.root` span, which wraps `handle` when its
 * tracing is on: obs does not export SvelteKit's request span, so the root must not point at it.
 */
function outsideSvelteKitSpans() {
  const active = context.active();
  const span = trace.getSpan(active) as { instrumentationScope?: { name?: string } } | undefined;
  return span?.instrumentationScope?.name === SVELTEKIT_SCOPE ? trace.deleteSpan(active) : active;
}

/** SvelteKit's `redirect()` and `error()` thrown from a hook are answers with a status, not failures. */
function statusOfThrow(error: unknown): number | undefined {
  const e = error as { status?: unknown; location?: unknown; body?: unknown } | null;
  if (!e || typeof e.status !== 'number') return undefined;
  if (typeof e.location === 'string' || (e.body !== undefined && e.status < 500)) return e.status;
  return undefined;
}
