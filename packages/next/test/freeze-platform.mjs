// Preloaded into `next start` (`node --import`) by the freeze suite: the platform a serverless
// Next.js function runs on, as Vercel provides it. Each request runs with a request context
// (`globalThis[Symbol.for('@next/request-context')]`, which Next.js's `after()` and @obs/next read)
// whose `waitUntil` keeps the function alive; once the response has been sent and every promise
// handed to `waitUntil` has settled (those added while waiting too), the function is frozen: the
// harness is told and the process stops itself (SIGSTOP) until the next request. Only requests
// with an `x-freeze` header (the invocation's id) take part; the harness's readiness probe does not.
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import { settleAndFreeze } from '@obs/local-server/freeze';

const requestContext = new AsyncLocalStorage();
globalThis[Symbol.for('@next/request-context')] = { get: () => requestContext.getStore() };

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function platformEmit(event, req, res, ...rest) {
  const id = event === 'request' ? req.headers['x-freeze'] : undefined;
  if (id === undefined) return emit.call(this, event, req, res, ...rest);
  const pending = new Set();
  const waitUntil = (promise) => {
    const p = Promise.resolve(promise).then(
      () => undefined,
      () => undefined,
    );
    pending.add(p);
    void p.then(() => pending.delete(p));
  };
  const sent = new Promise((resolve) => {
    res.once('finish', resolve);
    res.once('close', resolve);
  });
  void (async () => {
    await sent;
    while (pending.size > 0) await Promise.all([...pending]);
    settleAndFreeze({ type: 'settled', id });
  })();
  return requestContext.run({ waitUntil }, () => emit.call(this, event, req, res, ...rest));
};
