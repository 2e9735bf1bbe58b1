/**
 * A Fastify adapter sketched on core's Node.js layer (`@obs/core/http`), to show what a new
 * Node.js adapter has to write: only Fastify's knowledge (its hooks, `routeOptions.url`, the
 * payload `onSend` sees, the error `onError` sees). Everything else (ignore, the root, the trace-id
 * header, input from the parsed body or query, the end on response close with the status, abort
 * and error rule) is the layer's.
 *
 * @example
 * ```ts
 * const app = Fastify();
 * await app.register(obsFastify({ identify: (req) => ({ userId: req.headers['x-user'] }) }));
 * ```
 */
import { context } from '@opentelemetry/api';
import { initObs, type ObsHttpOptions } from '@obs/core';
import { isBinary, NodeHttpObserver } from '@obs/core/http';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';

export function obsFastify(options: ObsHttpOptions<FastifyRequest, FastifyReply> = {}): FastifyPluginCallback {
  const layer = new NodeHttpObserver<FastifyRequest, FastifyReply>(options, { adapter: 'obs-fastify', deferIdentify: true });
  const observed = (request: FastifyRequest) => layer.requestOf(request.raw);

  const plugin: FastifyPluginCallback = (fastify, _options, done) => {
    initObs();
    fastify.addHook('onRequest', (request, reply, next) => {
      const obs = layer.start(request.raw, reply.raw);
      if (!obs) return next();
      // identify, captureInput and the input see Fastify's request (parsed body, query).
      obs.link(request, reply);
      if (request.routeOptions.url) obs.ro.setRoute(request.routeOptions.url);
      context.with(obs.ro.context, next);
    });
    fastify.addHook('preHandler', (request, _reply, next) => {
      const obs = observed(request);
      if (!obs) return next();
      // Auth hooks ran; the body was parsed outside our context, so enter it again for the handler.
      obs.ro.allowIdentify();
      context.with(obs.ro.context, next);
    });
    fastify.addHook('onSend', (request, reply, payload, next) => {
      // Fastify serialised the reply already: a string or bytes (streams are left alone).
      if (typeof payload === 'string' || isBinary(payload)) {
        const type = reply.getHeader('content-type');
        observed(request)?.ro.setOutput(payload, reply, type === undefined ? undefined : String(type));
      }
      next(null, payload);
    });
    fastify.addHook('onError', (request, _reply, error, next) => {
      observed(request)?.noteError(error);
      next();
    });
    done();
  };
  // Like fastify-plugin: the hooks apply to the whole app, not only to routes registered inside.
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return plugin;
}
