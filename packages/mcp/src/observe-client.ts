/**
 * `observeMcpClient(client)`: a view of an MCP `Client` (`@modelcontextprotocol/sdk` 1.x or
 * `@modelcontextprotocol/client` 2.x) whose requests are observations. Every high-level method
 * (`callTool`, `listTools`, `readResource`, `getPrompt`, ...) sends through the client's
 * `request()`, called on the view, so wrapping that one method sees them all; the client itself
 * is not changed (a `Proxy`). The observation's `traceparent` goes out in `params._meta`.
 */
import { getObsHandle, initObs } from '@obs/core';
import { type Dict, isDict, logger } from '@obs/core/kit';
import { guard, McpCall } from './mcp-call.js';
import { implementation, isObserved } from './methods.js';

const OBSERVED = Symbol.for('@obs/mcp.observed');

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** What the client knows of its connection, read at each request. */
interface ClientState {
  /** `protocolVersion` of the `initialize` result (1.x clients have no getter for it). */
  protocolVersion?: string;
}

/**
 * Returns a view of an MCP client whose requests are obs observations: `tools/call <tool>` as a
 * `tool`, every other request (`tools/list`, `resources/read`, `prompts/get <name>`, ...) as a
 * `span`, nested under the active observation, with the W3C trace context in `params._meta` so an
 * observed server continues the trace. Call it on a new client, before `connect()`, and use what
 * it returns. Its first request starts obs (`initObs()`) if nothing has yet. Never throws: an
 * object that is not an MCP client is returned as it is, with one warning.
 *
 * @example
 * ```ts
 * const client = observeMcpClient(new Client({ name: 'support-agent', version: '1.0.0' }));
 * await client.connect(new StdioClientTransport({ command: 'node', args: ['weather-server.js'] }));
 * ```
 */
export function observeMcpClient<T extends object>(client: T): T {
  return guard.run(() => observedClient(client), client);
}

function observedClient<T extends object>(client: T): T {
  const target = client as Dict;
  if (target[OBSERVED as never] === true) return client;
  const original = target['request'];
  if (typeof original !== 'function' || typeof target['connect'] !== 'function') {
    logger.warn('observeMcpClient: this is not an MCP client (no request() and connect()); left as it is');
    return client;
  }
  const state: ClientState = {};
  const request = function (this: unknown, ...args: unknown[]) {
    return tracedRequest(original as Method, this, args, state);
  };
  return new Proxy(client, {
    get(obj, prop, receiver) {
      if (prop === OBSERVED) return true;
      if (prop === 'request') return request;
      return Reflect.get(obj, prop, receiver);
    },
  });
}

function tracedRequest(original: Method, self: unknown, args: unknown[], state: ClientState): unknown {
  const req = args[0];
  const method = isDict(req) ? req['method'] : undefined;
  if (!isObserved(method)) {
    const result = original.apply(self, args);
    if (method === 'initialize') recordInitialize(result, state);
    return result;
  }
  const params = (req as Dict)['params'];
  const call = guard.run(() => {
    getObsHandle() ?? initObs();
    return McpCall.start(method, params, { mcp: clientMetadata(self, method, state) });
  });
  if (!call) return original.apply(self, args);
  // The caller's request is not changed: the trace context goes on a copy.
  const sent = guard.run(() => ({ ...(req as Dict), params: { ...(isDict(params) ? params : {}), _meta: withTrace(params, call) } }), req);
  return call.run(
    () => original.call(self, sent, ...args.slice(1)),
    () => cancelled(args),
  );
}

function withTrace(params: unknown, call: McpCall): Dict {
  const meta = isDict(params) && isDict(params['_meta']) ? params['_meta'] : {};
  return { ...meta, ...call.traceMeta() };
}

/** Whether the caller aborted the request through its options' `signal`. */
function cancelled(args: unknown[]): boolean {
  return args.slice(1).some((a) => isDict(a) && (a['signal'] as AbortSignal | undefined)?.aborted === true);
}

function recordInitialize(result: unknown, state: ClientState): void {
  if (typeof (result as PromiseLike<unknown> | undefined)?.then !== 'function') return;
  (result as PromiseLike<unknown>).then(
    (value) => {
      if (isDict(value) && typeof value['protocolVersion'] === 'string') state.protocolVersion = value['protocolVersion'];
    },
    () => {},
  );
}

/** `mcp` metadata of a client-side observation: the method, the server, the session and protocol. */
function clientMetadata(client: unknown, method: string, state: ClientState): Dict {
  const c = client as {
    getServerVersion?: () => unknown;
    getNegotiatedProtocolVersion?: () => unknown;
    transport?: { sessionId?: unknown };
  };
  const server = typeof c.getServerVersion === 'function' ? c.getServerVersion() : undefined;
  const version = typeof c.getNegotiatedProtocolVersion === 'function' ? c.getNegotiatedProtocolVersion() : state.protocolVersion;
  const sessionId = c.transport?.sessionId;
  return {
    method,
    ...(isDict(server) ? { server: implementation(server) } : {}),
    ...(typeof sessionId === 'string' ? { sessionId } : {}),
    ...(typeof version === 'string' ? { protocolVersion: version } : {}),
  };
}
