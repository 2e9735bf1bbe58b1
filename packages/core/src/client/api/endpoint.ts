import type { Transport } from './core/transport.js';
import type { ApiCall, HttpMethod, QueryValue, RequestOptions } from './core/types.js';
import { pathParam } from './core/url.js';

/**
 * A method of the API client: the endpoint's path parameters (`P`, named), its request (`Req`:
 * `EmptyRequest` for the contract's `{}` placeholder; optional when it has no required field),
 * the per-call options.
 */
// biome-ignore lint/complexity/noBannedTypes: `{} extends Req` asks whether the request may be left out
export type Method<P extends unknown[], Req, R> = {} extends Req
  ? (...args: [...path: P, request?: Req, requestOptions?: RequestOptions]) => Promise<R>
  : (...args: [...path: P, request: Req, requestOptions?: RequestOptions]) => Promise<R>;

/** An endpoint described once, turned into a method of one client by `bindApi`. */
export type Endpoint<F> = ((transport: Transport, name: string) => F) & { readonly endpoint: true };

/** What a request puts on the wire besides the path: a query, a body, or nothing. */
type Shape = (request: never) => Pick<ApiCall, 'query' | 'body'>;

/** The API as a table of `Endpoint`s, namespaces within namespaces. */
export interface EndpointTable {
  [name: string]: Endpoint<unknown> | EndpointTable;
}

/** The methods an `EndpointTable` becomes, with every name and TSDoc it had. */
export type BoundApi<T> = { readonly [K in keyof T]: T[K] extends Endpoint<infer F> ? F : BoundApi<T[K]> };

/** A method written by hand for an endpoint whose call is more than its request (a check, chunks). */
export function custom<F>(make: (transport: Transport, name: string) => F): Endpoint<F> {
  return Object.assign(make, { endpoint: true as const });
}

/**
 * `method` on `path`: each `{name}` in it is filled, in order, from the leading arguments
 * (percent-encoded, an invalid one refused by the transport before anything is sent); the next
 * argument is the request, put on the wire by `shape` (none: the `{}` placeholder, ignored); the
 * last, the per-call options.
 */
export function endpoint<F>(method: HttpMethod, path: string, shape?: Shape): Endpoint<F> {
  const params = path.match(/\{\w+\}/g)?.length ?? 0;
  return custom((transport, name) => {
    return ((...args: unknown[]) => {
      let at = 0;
      const filled = path.replace(/\{(\w+)\}/g, (_, param: string) => pathParam(args[at++] as string, param));
      const wire = shape?.(args[params] as never);
      return transport.request({ name, method, path: filled, ...wire }, args[params + 1] as RequestOptions | undefined);
    }) as F;
  });
}

/** The request's `keys` as the query (undefined ones left out by the URL). */
export function query(...keys: string[]): Shape {
  return (request: Record<string, QueryValue> | undefined) => ({ query: Object.fromEntries(keys.map((k) => [k, request?.[k]])) });
}

/** The request as the JSON body. */
export const body: Shape = (request: unknown) => ({ body: request });

/** `table`'s endpoints bound to `transport`, each named `namespace.method` in errors. */
export function bindApi<T extends EndpointTable>(transport: Transport, table: T, prefix = ''): BoundApi<T> {
  const bound: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(table)) {
    bound[key] =
      'endpoint' in entry ? (entry as Endpoint<unknown>)(transport, `${prefix}${key}`) : bindApi(transport, entry, `${prefix}${key}.`);
  }
  return bound as BoundApi<T>;
}
