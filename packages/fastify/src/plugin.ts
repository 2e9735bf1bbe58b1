import { context } from '@opentelemetry/api';
import { getObsHandle, initObs } from '@obs/core';
import { captureWrites, NodeHttpObserver, NodeResponseCapture, type NodeRequest, type NodeResponseLike } from '@obs/core/http';
import { AdapterGuard, errorMessage, logger, warnMisplacedOptions } from '@obs/core/kit';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ObsFastifyOptions } from './options.js';
import { fastifyOtelContext } from './fastify-otel-context.js';

type Observed = NodeRequest<FastifyRequest, FastifyReply>;

/**
 * Traces every request of the app as a root observation named `METHOD /route/:param`, with its
 * input (the parsed body, else the query), output (the reply's value, text or stream, server-sent
 * events included), errors (thrown, or handled by `setErrorHandler`, judged by the status the
 * reply ends with), and `identify(request)`'s user and session on every span created while
 * handling it. Register it first: `await app.register(obsPlugin, { identify })`; its hooks apply
 * to the whole app. Sets tracing up itself when nothing has, and `app.close()` flushes.
 */
function obsFastify(fastify: FastifyInstance, options: ObsFastifyOptions, done: (err?: Error) => void): void {
  warnMisplacedOptions('obsPlugin', options);
  const { obs: init, flushOnClose = true, ...http } = options;
  const guard = new AdapterGuard('@obs/fastify');
  // Fastify's hooks register plain functions: options are taken as given (no per-request set-up).
  const layer = new NodeHttpObserver<FastifyRequest, FastifyReply>(http, { adapter: '@obs/fastify', deferIdentify: true });
  const observed = (request: FastifyRequest): Observed | undefined => layer.requestOf(request.raw);
  if (!getObsHandle()) initObs(init);
  const recordOutput = http.captureOutput !== false;

  fastify.addHook('onRequest', (request, reply, next) => {
    const obs = guard.run(() => start(request, reply));
    if (!obs) return next();
    // The rest of the hooks, and the handler when they run synchronously, see the root as active.
    context.with(obs.ro.context, next);
  });

  function start(request: FastifyRequest, reply: FastifyReply): Observed | undefined {
    const otel = fastifyOtelContext(request);
    const obs = otel ? context.with(otel.context, () => layer.start(request.raw, reply.raw)) : layer.start(request.raw, reply.raw);
    if (!obs) return undefined;
    otel?.replace(obs.ro.contextOver(otel.context));
    // identify, captureInput and captureOutput see Fastify's request and reply.
    obs.link(request, reply);
    const route = routeOf(request);
    if (route) obs.ro.setRoute(route);
    else obs.ro.setUnmatched();
    if (recordOutput && request.method !== 'HEAD') {
      obs.output = new NodeResponseCapture(obs.ro, reply as unknown as NodeResponseLike);
      captureWrites(reply.raw, obs.output, guard);
    }
    return obs;
  }

  fastify.addHook('preHandler', (request, _reply, next) => {
    const obs = observed(request);
    if (!obs) return next();
    // Auth hooks ran (onRequest, preParsing, preValidation, preHandler before this one): identify
    // may run from now on, lazily. The body was parsed outside the request's context: enter it
    // again for the handler.
    guard.run(() => obs.ro.allowIdentify());
    context.with(obs.ro.context, next);
  });

  fastify.addHook('preSerialization', (request, _reply, payload, next) => {
    // The value before Fastify serialises it: recorded as the value, not as its JSON text.
    guard.run(() => observed(request)?.output?.value(payload));
    next(null, payload);
  });

  // Fastify runs onError before the error handler (its own or one set with setErrorHandler,
  // whatever that answers): the error is noted, and the status the reply ends with judges it.
  fastify.addHook('onError', (request, _reply, error, next) => {
    guard.run(() => observed(request)?.noteError(error));
    next();
  });

  if (flushOnClose) {
    fastify.addHook('onClose', async () => {
      try {
        await getObsHandle()?.flush();
      } catch (err) {
        logger.warn(`@obs/fastify: flush on close failed: ${errorMessage(err)}`);
      }
    });
  }
  done();
}

/** The matched route's pattern (`/chat/:id`, prefixes included); undefined for the 404 handler. */
function routeOf(request: FastifyRequest): string | undefined {
  const r = request as FastifyRequest & { routerPath?: string };
  // routeOptions from Fastify 4.10 on; routerPath before (removed in 5).
  return r.routeOptions?.url ?? r.routerPath ?? undefined;
}

/**
 * The obs Fastify plugin (Fastify 4 and 5): `await app.register(obsPlugin, options)`.
 *
 * @example
 * ```ts
 * const app = Fastify();
 * await app.register(obsPlugin, { identify: (request) => ({ userId: request.user?.id }) });
 * app.post('/chat/:id', async (request) => ({ answer: await answer(request.body) }));
 * ```
 */
export const obsPlugin: FastifyPluginCallback<ObsFastifyOptions> = fp(obsFastify, { name: '@obs/fastify', fastify: '4.x || 5.x' });
