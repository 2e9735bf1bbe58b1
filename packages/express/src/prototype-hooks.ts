import { IncomingMessage, ServerResponse } from 'node:http';
import { observedRequestOf, observedRequestOfResponse } from '@obs/core/http';
import { ExpressRequest } from './express-request.js';
import { guard } from './guard.js';

/** The Express request a request object belongs to, when `obsMiddleware` observes it. */
function stateOf(req: object): ExpressRequest | undefined {
  const request = observedRequestOf(req);
  return request instanceof ExpressRequest ? request : undefined;
}

/**
 * Express gives each app its own request and response prototypes (`app.request`,
 * `app.response`). The hooks go there once per app instead of on every request: `res.json`,
 * `res.send`, `res.write` and `res.end` record what is sent, and a `req.route` accessor catches the moment
 * Express dispatches a matched route. Requests the middleware does not observe pass straight
 * through (one symbol lookup).
 */

const HOOKED = Symbol.for('obs.express.hooked');
const ROUTE = Symbol.for('obs.express.route');

type Fn = ((...args: unknown[]) => unknown) & { [HOOKED]?: true };
type Proto = Record<string | symbol, unknown>;

const done = new WeakSet<object>();

/** Hooks the prototypes of this request and response (first request of each app only). */
export function hookPrototypes(req: object, res: object): void {
  const reqProto = hookTarget(req);
  if (reqProto && !done.has(reqProto)) {
    done.add(reqProto);
    hookRoute(reqProto);
  }
  const resProto = hookTarget(res);
  if (resProto && !done.has(resProto)) {
    done.add(resProto);
    hookMethod(resProto, 'json', recordingJson);
    hookMethod(resProto, 'send', recordingSend);
    hookMethod(resProto, 'write', recordingWrite);
    hookMethod(resProto, 'end', recordingEnd);
  }
}

/**
 * The app's prototype; the object itself when it has none of its own (a bare `Router` on a
 * plain Node.js server), so Node's own prototypes are never changed.
 */
function hookTarget(target: object): Proto | null {
  const proto: unknown = Object.getPrototypeOf(target);
  if (proto === IncomingMessage.prototype || proto === ServerResponse.prototype) return target as Proto;
  return proto as Proto | null;
}

function hookMethod(proto: Proto, name: string, wrap: (original: Fn) => Fn): void {
  const original = proto[name] as Fn | undefined;
  // Already hooked higher up the chain (a sub-app's prototype inherits its parent's).
  if (typeof original !== 'function' || original[HOOKED]) return;
  const hooked = wrap(original);
  hooked[HOOKED] = true;
  Object.defineProperty(proto, name, { configurable: true, enumerable: false, writable: true, value: hooked });
}

function hookRoute(proto: Proto): void {
  for (let p: object | null = proto; p; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, 'route');
    if (d?.set && (d.set as Fn)[HOOKED]) return;
  }
  const set: Fn = function setRoute(this: Proto, route: unknown) {
    const state = stateOf(this);
    if (state !== undefined) state.onRoute(route);
    else this[ROUTE] = route;
  };
  set[HOOKED] = true;
  Object.defineProperty(proto, 'route', {
    configurable: true,
    enumerable: true,
    get(this: Proto) {
      const state = stateOf(this);
      return state !== undefined ? state.routeValue : this[ROUTE];
    },
    set,
  });
}

function recordingJson(original: Fn): Fn {
  return function json(this: object) {
    // biome-ignore lint/complexity/noArguments: forwards the patched method's arguments as they came, without a rest array per call
    const args = arguments;
    const state = observedRequestOfResponse(this);
    if (state?.output) {
      // Express 4 still accepts the deprecated `res.json(status, body)`.
      guard.run(() => state.output?.value(args.length > 1 && typeof args[0] === 'number' ? args[1] : args[0]));
    }
    return original.apply(this, args as unknown as unknown[]);
  };
}

/** `res.send(text)`, before middleware that rewrites `res.end` (compression) turns it into bytes. */
function recordingSend(original: Fn): Fn {
  return function send(this: object) {
    // biome-ignore lint/complexity/noArguments: forwards the patched method's arguments as they came, without a rest array per call
    const args = arguments;
    const state = observedRequestOfResponse(this);
    if (state?.output && typeof args[0] === 'string') {
      guard.run(() => state.output?.text(args[0] as string));
    }
    return original.apply(this, args as unknown as unknown[]);
  };
}

function recordingWrite(original: Fn): Fn {
  return function write(this: object) {
    // biome-ignore lint/complexity/noArguments: forwards the patched method's arguments as they came, without a rest array per call
    const args = arguments;
    const state = observedRequestOfResponse(this);
    if (state?.output) {
      guard.run(() => state.output?.write(args[0], args[1]));
    }
    return original.apply(this, args as unknown as unknown[]);
  };
}

function recordingEnd(original: Fn): Fn {
  return function end(this: object) {
    // biome-ignore lint/complexity/noArguments: forwards the patched method's arguments as they came, without a rest array per call
    const args = arguments;
    const state = observedRequestOfResponse(this);
    if (state !== undefined) {
      guard.run(() => {
        if (state instanceof ExpressRequest) state.onResponseEnd();
        state.output?.end(args[0], args[1]);
      });
    }
    return original.apply(this, args as unknown as unknown[]);
  };
}
