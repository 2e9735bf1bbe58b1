/**
 * `@fastify/otel`'s private shape, quarantined here: it runs every hook and handler of a request
 * in a context of its own, kept in a request decoration under a private symbol (its `request`
 * span active), not in the active one. The obs root starts in that context, and the context gets
 * the request's obs work added (its active span unchanged, so the app's Fastify spans keep their
 * parents): the handler's observations join the obs tree with identify's attributes. Without
 * `@fastify/otel`, or if it changes its shape, there is nothing to find and nothing is written.
 */
import type { Context } from '@opentelemetry/api';

const DESCRIPTION = 'fastify otel request context';

/** Where `@fastify/otel` keeps this request's context, if it instruments the app: read it, and replace it. */
export function fastifyOtelContext(request: object): { context: Context; replace(ctx: Context): void } | undefined {
  for (const symbol of Object.getOwnPropertySymbols(request)) {
    if (symbol.description !== DESCRIPTION) continue;
    const slots = request as Record<symbol, unknown>;
    const value = slots[symbol];
    if (!isContext(value)) return undefined;
    return { context: value, replace: (ctx) => void (slots[symbol] = ctx) };
  }
  return undefined;
}

function isContext(value: unknown): value is Context {
  return typeof value === 'object' && value !== null && typeof (value as Context).getValue === 'function';
}
