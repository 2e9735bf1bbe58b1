// The benches' request, injected in-process (light-my-request: real IncomingMessage/ServerResponse
// over a fake socket, no network) instead of sent over HTTP. Shared by express/app.mjs and
// nest/app.mjs (their `{ inject }` message).

/**
 * Injects `count` `POST /chat/42` requests into `handler` (a Node.js request listener, e.g. an
 * Express app), one after another, each answered with `status`; resolves with this process's CPU
 * µs per request.
 */
export async function injectChat(handler, count, status) {
  const { inject } = await import('light-my-request');
  const options = { method: 'POST', url: '/chat/42', headers: { 'content-type': 'application/json' }, payload: '{"message":"hello"}' };
  const c0 = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const res = await inject(handler, options);
    if (res.statusCode !== status) throw new Error(`HTTP ${res.statusCode}: ${res.payload}`);
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / count;
}
