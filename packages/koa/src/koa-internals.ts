/**
 * `@koa/router`'s private shape, quarantined here: it names the route a request matched by
 * assigning `ctx._matchedRoute` (the layer's path, prefixes included: `/api/chat/:id`), once when
 * it matches and again for each matched layer it runs. The middleware reads the last value at the
 * end, and is told of the first assignment (the request is routed: app-level auth has run) through
 * an accessor on that request's `ctx`. Without `@koa/router`, or if it changes its shape, nothing
 * is assigned: the request is named `METHOD <unmatched>` and identify runs at the first span or the end.
 * And Koa's own error answer, which clears the response's headers.
 */
const ROUTE_KEY = '_matchedRoute';

/** Calls `onRoute` when the router assigns the request's route; the value is kept as assigned. */
export function watchRoute(ctx: object, onRoute: () => void): void {
  let value: unknown = (ctx as Record<string, unknown>)[ROUTE_KEY];
  Object.defineProperty(ctx, ROUTE_KEY, {
    configurable: true,
    enumerable: true,
    get: () => value,
    set(next: unknown) {
      value = next;
      onRoute();
    },
  });
}

/** The route pattern the request matched, if a router matched one. */
export function routeOf(ctx: object): string | undefined {
  const route = (ctx as Record<string, unknown>)[ROUTE_KEY];
  return typeof route === 'string' && route !== '' ? route : undefined;
}

/**
 * Koa's error answer (`ctx.onerror`) first removes every header the response has, then sets the
 * error's own: `name` (the trace-id header) is kept through that, so an error's trace can be found.
 */
export function keepHeader(res: object, name: string): void {
  const raw = res as { removeHeader: (this: unknown, header: string) => void };
  const remove = raw.removeHeader;
  const kept = name.toLowerCase();
  raw.removeHeader = function obsRemoveHeader(this: unknown, header: string) {
    if (typeof header === 'string' && header.toLowerCase() === kept) return;
    remove.call(this, header);
  };
}
