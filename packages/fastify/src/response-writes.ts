/**
 * What a Fastify reply sends, fed to core's `NodeResponseCapture` from the Node.js response's own
 * `write`/`end`: whatever Fastify does with a payload (a serialised value, a string, a piped
 * stream) and whatever a handler writes itself (`reply.raw.write` for server-sent events) ends
 * there.
 */
import type { NodeResponseCapture } from '@obs/core/http';
import type { AdapterGuard } from '@obs/core/kit';

type Write = (this: unknown, ...args: unknown[]) => unknown;

/** Records every `write` and `end` of `raw` into `capture`; the writes themselves are unchanged. */
export function captureWrites(raw: object, capture: NodeResponseCapture, guard: AdapterGuard): void {
  const res = raw as { write: Write; end: Write };
  const write = res.write;
  const end = res.end;
  res.write = function obsWrite(this: unknown, ...args: unknown[]) {
    guard.run(() => capture.write(args[0], args[1]));
    return write.apply(this, args);
  };
  res.end = function obsEnd(this: unknown, ...args: unknown[]) {
    guard.run(() => capture.end(args[0], args[1]));
    return end.apply(this, args);
  };
}
