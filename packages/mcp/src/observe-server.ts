/**
 * `observeMcpServer(server)`: a view of an MCP server (`McpServer` or the low-level `Server`, of
 * `@modelcontextprotocol/sdk` 1.x or `@modelcontextprotocol/server` 2.x) whose request handlers
 * run inside observations. The SDK dispatches a request by looking its handler up in the
 * server's handler table; on the view (the server it connects is the view) that lookup returns
 * the handler wrapped, so every handler is observed whenever it was registered (by `registerTool`,
 * `setRequestHandler`, or the constructor) and the server itself is not changed (a `Proxy`).
 */
import { getObsHandle, initObs } from '@obs/core';
import { type Dict, isDict, logger } from '@obs/core/kit';
import { guard, McpCall } from './mcp-call.js';
import { implementation, isObserved } from './methods.js';
import { remoteParent } from './trace-meta.js';

const OBSERVED = Symbol.for('@obs/mcp.observed');

type Handler = (this: unknown, request: unknown, extra: unknown) => unknown;

/** What one low-level server knows of its connection, read at each request. */
interface ServerState {
  server: Dict;
  /** The version the `initialize` handler answered (1.x servers keep no other record of it). */
  protocolVersion?: string;
  /** Handler table -> its view; handler -> its observed wrapper. */
  views: WeakMap<Map<string, Handler>, Map<string, Handler>>;
  wrapped: WeakMap<Handler, Handler>;
}

/**
 * Returns a view of an MCP server (`McpServer` or the low-level `Server`) whose request handlers
 * run inside obs observations named like the client's (`tools/call <tool>`, ...): the caller's
 * trace continues from the `traceparent` in `params._meta`, the caller's observation is the
 * parent, and what a handler does (a generation, a retriever) nests under it. Call it before
 * `connect()` and connect (and register on) what it returns; with the 2.x `createMcpHandler` or
 * `serveStdio`, return it from the factory. A handler's first request starts obs (`initObs()`)
 * if nothing has yet. Never throws: an object that is not an MCP server is returned as it is,
 * with one warning.
 *
 * @example
 * ```ts
 * const server = observeMcpServer(new McpServer({ name: 'weather', version: '1.0.0' }));
 * server.registerTool('get_weather', { inputSchema: { city: z.string() } }, async ({ city }) => ({
 *   content: [{ type: 'text', text: `Sunny in ${city}` }],
 * }));
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function observeMcpServer<T extends object>(server: T): T {
  return guard.run(() => observedServer(server), server);
}

function observedServer<T extends object>(server: T): T {
  const target = server as Dict;
  if (target[OBSERVED as never] === true) return server;
  const inner = target['server'];
  if (isLowLevelServer(inner)) {
    // An McpServer: it registers and connects through `this.server`, which the view replaces.
    const observedInner = observeLowLevel(inner);
    return new Proxy(server, {
      get(obj, prop, receiver) {
        if (prop === OBSERVED) return true;
        if (prop === 'server') return observedInner;
        return Reflect.get(obj, prop, receiver);
      },
    });
  }
  if (isLowLevelServer(target)) return observeLowLevel(target) as T;
  logger.warn('observeMcpServer: this is not an MCP server (no McpServer or Server request handlers); left as it is');
  return server;
}

function isLowLevelServer(value: unknown): value is Dict {
  return (
    isDict(value) &&
    typeof value['setRequestHandler'] === 'function' &&
    typeof value['connect'] === 'function' &&
    value['_requestHandlers'] instanceof Map
  );
}

function observeLowLevel(server: Dict): Dict {
  const state: ServerState = { server, views: new WeakMap(), wrapped: new WeakMap() };
  return new Proxy(server, {
    get(obj, prop, receiver) {
      if (prop === OBSERVED) return true;
      const value = Reflect.get(obj, prop, receiver);
      return prop === '_requestHandlers' && value instanceof Map ? viewOf(value, state) : value;
    },
  });
}

/** The handler table as the SDK's dispatch reads it through the view: `get` hands out observed handlers. */
function viewOf(table: Map<string, Handler>, state: ServerState): Map<string, Handler> {
  let view = state.views.get(table);
  if (view) return view;
  const get = (method: string) => {
    const handler = table.get(method);
    return typeof handler === 'function' ? observed(handler, state) : handler;
  };
  view = new Proxy(table, {
    get(map, prop) {
      if (prop === 'get') return get;
      const value = Reflect.get(map, prop, map);
      return typeof value === 'function' ? value.bind(map) : value;
    },
  });
  state.views.set(table, view);
  return view;
}

function observed(handler: Handler, state: ServerState): Handler {
  let wrapped = state.wrapped.get(handler);
  if (!wrapped) {
    wrapped = function (this: unknown, request: unknown, extra: unknown) {
      return tracedHandler(handler, this, request, extra, state);
    };
    state.wrapped.set(handler, wrapped);
  }
  return wrapped;
}

function tracedHandler(handler: Handler, self: unknown, request: unknown, extra: unknown, state: ServerState): unknown {
  const method = isDict(request) ? request['method'] : undefined;
  if (!isObserved(method)) {
    const result = handler.call(self, request, extra);
    if (method === 'initialize') recordInitialize(result, state);
    return result;
  }
  const params = (request as Dict)['params'];
  const call = guard.run(() => {
    getObsHandle() ?? initObs();
    const parent = remoteParent(isDict(params) ? params['_meta'] : undefined);
    return McpCall.start(method, params, { mcp: serverMetadata(method, extra, state) }, parent);
  });
  if (!call) return handler.call(self, request, extra);
  return call.run(() => handler.call(self, request, extra));
}

function recordInitialize(result: unknown, state: ServerState): void {
  Promise.resolve(result).then(
    (value) => {
      if (isDict(value) && typeof value['protocolVersion'] === 'string') state.protocolVersion = value['protocolVersion'];
    },
    () => {},
  );
}

let processName: string | undefined;

/** This process as the viewer names it: `server.js (pid 4242)`. */
function thisProcess(): string | undefined {
  const proc = (globalThis as { process?: { pid?: number; argv?: string[]; title?: string } }).process;
  if (typeof proc?.pid !== 'number') return undefined;
  processName ??= `${(proc.argv?.[1] ?? proc.title ?? 'node').split(/[\\/]/).pop()} (pid ${proc.pid})`;
  return processName;
}

/** `mcp` metadata of a server-side observation: the method, both peers, session, protocol, process. */
function serverMetadata(method: string, extra: unknown, state: ServerState): Dict {
  const s = state.server as {
    _serverInfo?: unknown;
    getClientVersion?: () => unknown;
    getNegotiatedProtocolVersion?: () => unknown;
  };
  const x = isDict(extra) ? extra : {};
  const headers = isDict(x['requestInfo']) ? x['requestInfo']['headers'] : undefined;
  const header = isDict(headers) ? headers['mcp-protocol-version'] : undefined;
  const version =
    (typeof s.getNegotiatedProtocolVersion === 'function' ? s.getNegotiatedProtocolVersion() : undefined) ??
    header ??
    state.protocolVersion;
  const client = typeof s.getClientVersion === 'function' ? s.getClientVersion() : undefined;
  const sessionId = x['sessionId'];
  const process = thisProcess();
  return {
    method,
    ...(isDict(s._serverInfo) ? { server: implementation(s._serverInfo) } : {}),
    ...(isDict(client) ? { client: implementation(client) } : {}),
    ...(typeof sessionId === 'string' ? { sessionId } : {}),
    ...(typeof version === 'string' ? { protocolVersion: version } : {}),
    ...(process ? { process } : {}),
  };
}
