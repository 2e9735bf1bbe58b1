/**
 * The Nitro server plugin: every request h3 handles, observed on core's Node.js layer around
 * `nitroApp.h3App.handler`, named after the route Nitro matched, errors from Nitro's `error` hook.
 */
import { context } from '@opentelemetry/api';
import { getObsHandle, initObs } from '@obs/core';
import { NodeHttpObserver, NodeRequest, NodeResponseCapture, type RequestObservation } from '@obs/core/http';
import { AdapterGuard, warnMisplacedOptions } from '@obs/core/kit';
import type { H3Event } from 'h3';
import type { ObsNuxtOptions } from './options.js';

/** Where h3 1.x keeps a body it read (`readBody`), on the Node.js request. */
const PARSED_BODY = Symbol.for('h3ParsedBody');

/** What the plugin uses of Nitro's `NitroApp` (nitropack 2), structurally. */
interface NitroAppLike {
  h3App: { handler: (event: H3Event) => unknown };
  hooks: { hook(name: 'error', fn: (error: unknown, ctx: { event?: H3Event }) => void): unknown };
}

/**
 * The Nitro server plugin: `export default defineNitroPlugin(obsNitroPlugin())` in
 * `server/plugins/obs.ts` (Nuxt 4, or any Nitro 2 app). Every request Nitro serves (`server/api`
 * and `server/routes` handlers, middleware, page renders) is one trace, its root named
 * `METHOD <route>` after the route Nitro's router matched (`/api/chat/:id`; `/**` for Nuxt's page
 * renderer); its input (the body a handler read, else the query), its output as sent (JSON, text,
 * server-sent events reassembled as they stream), errors Nitro reports through its `error` hook,
 * and `identify(event)` on every span of the request. Sets tracing up itself when nothing has
 * (from `OBS_*` and `options.obs`).
 */
export function obsNitroPlugin(options: ObsNuxtOptions = {}): (nitroApp: NitroAppLike) => void {
  warnMisplacedOptions('obsNitroPlugin', options);
  const { obs: init, ...http } = options;
  return function obsNitroPlugin(nitroApp) {
    const guard = new AdapterGuard('@obs/nuxt');
    guard.run(() => {
      // An app that called initObs() itself keeps its settings (no "options ignored" line).
      if (!getObsHandle()) initObs(init);
      const layer = new NodeHttpObserver<H3Event, H3Event, NitroRequest>(http as ObsNuxtOptions, {
        adapter: '@obs/nuxt',
        create: (ro, req, res, path, adapter) => new NitroRequest(ro as RequestObservation<H3Event, H3Event>, req, res, path, adapter),
      });
      const app = nitroApp.h3App;
      const handler = app.handler;
      app.handler = function obsHandler(event) {
        const request = guard.run(() => start(layer, event));
        return request ? context.with(request.ro.context, () => handler.call(this, event)) : handler.call(this, event);
      };
      nitroApp.hooks.hook('error', (error, { event }) => {
        guard.run(() => (event ? layer.requestOf(event.node?.req)?.noteError(error) : undefined));
      });
    });
  };
}

function start(layer: NodeHttpObserver<H3Event, H3Event, NitroRequest>, event: H3Event): NitroRequest | undefined {
  const { req, res } = event.node ?? {};
  if (!req || !res) return undefined;
  const request = layer.start(req, res);
  if (!request) return undefined;
  request.link(event, event);
  request.event = event;
  request.capture(layer.http.options.captureOutput !== false && req.method !== 'HEAD');
  return request;
}

/**
 * One Nitro request on core's Node.js layer: what the response sends is read from its `write` and
 * `end` (h3 serialises a handler's value, or pipes a stream, into them); the route and the body a
 * handler read are known at the end.
 */
class NitroRequest extends NodeRequest<H3Event, H3Event> {
  event?: H3Event;

  /** Records what this response writes (its own `write`/`end`, so no prototype is changed). */
  capture(on: boolean): void {
    if (!on) return;
    const res = this.rawRes as NodeResponseLikeWritable;
    const output = new NodeResponseCapture(this.ro, res);
    this.output = output;
    const write = res.write;
    const end = res.end;
    res.write = function (this: unknown, chunk: unknown, ...rest: unknown[]) {
      output.write(chunk, typeof rest[0] === 'string' ? rest[0] : undefined);
      return write.call(this, chunk, ...rest);
    };
    res.end = function (this: unknown, chunk?: unknown, ...rest: unknown[]) {
      if (typeof chunk !== 'function') output.end(chunk, typeof rest[0] === 'string' ? rest[0] : undefined);
      return end.call(this, chunk, ...rest);
    };
  }

  protected override beforeEnd(statusCode: number | undefined): void {
    const matched = (this.event?.context as { matchedRoute?: { path?: string } } | undefined)?.matchedRoute?.path;
    if (matched) this.ro.setRoute(matched);
    else if (statusCode === 404) this.ro.setUnmatched();
  }

  override recordInput(): void {
    this.inputRecorded = true;
    const body = (this.rawReq as { [PARSED_BODY]?: unknown })[PARSED_BODY];
    const url = this.rawReq.url ?? '';
    const q = url.indexOf('?');
    const query = q === -1 ? undefined : Object.fromEntries(new URLSearchParams(url.slice(q + 1)));
    if (body !== undefined && body !== null && body !== '') this.ro.setInput(body);
    else this.ro.setInput(undefined, query && Object.keys(query).length > 0 ? query : undefined);
  }
}

type NodeResponseLikeWritable = ConstructorParameters<typeof NodeResponseCapture>[1] & {
  write: (...args: unknown[]) => unknown;
  end: (...args: unknown[]) => unknown;
};
