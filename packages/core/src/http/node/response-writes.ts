/**
 * What a framework's response sends, fed to a `NodeResponseCapture` from the Node.js response's
 * own `write`/`end`: whatever the framework does with a body (a serialised value, a string, a piped
 * stream) and whatever a handler writes itself (server-sent events on the raw response) ends there.
 * For adapters whose framework has no hook of its own for the bytes it sends (Fastify, Koa).
 */
import type { AdapterGuard } from '../adapter-guard.js';
import type { NodeResponseCapture } from './response-capture.js';

type Write = (this: unknown, ...args: unknown[]) => unknown;

/** Records every `write` and `end` of `res` into `capture`; the writes themselves are unchanged. */
export function captureWrites(res: object, capture: NodeResponseCapture, guard: AdapterGuard): void {
  const raw = res as { write: Write; end: Write };
  const write = raw.write;
  const end = raw.end;
  raw.write = function obsWrite(this: unknown, ...args: unknown[]) {
    guard.run(() => capture.write(args[0], args[1]));
    return write.apply(this, args);
  };
  raw.end = function obsEnd(this: unknown, ...args: unknown[]) {
    guard.run(() => capture.end(args[0], args[1]));
    return end.apply(this, args);
  };
}
