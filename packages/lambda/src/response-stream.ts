/**
 * A streamed response (`awslambda.streamifyResponse`): the handler gets a `Proxy` of the runtime's
 * response stream, so what it writes (itself, through `pipeline`, or through
 * `awslambda.HttpResponseStream.from`) is reassembled as the invocation's output on the way, and
 * the status and content type of an HTTP prelude are read. The stream is not changed: the runtime
 * sees the same writes, in the same order, and the prelude still goes first through its own hook.
 */
import { describeBinary, isTextContentType, type RequestObservation } from '@obs/core/http';
import type { AdapterGuard } from '@obs/core/kit';

type Fn = (...args: unknown[]) => unknown;

/** What the stream sent, as the invocation records it at its end. */
export class StreamOutput {
  /** The status of an HTTP prelude (`HttpResponseStream.from(stream, { statusCode })`). */
  statusCode?: number;
  private contentType?: string;
  private mode?: 'text' | 'binary';
  private bytes = 0;

  constructor(private readonly ro: RequestObservation) {}

  /** `setContentType(type)` on the stream. */
  setContentType(type: unknown): void {
    if (typeof type === 'string' && !type.startsWith('application/vnd.awslambda.')) this.contentType = type;
  }

  /** The JSON prelude `HttpResponseStream.from` writes first. */
  prelude(chunk: unknown): void {
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : undefined;
    if (!text) return;
    const meta = JSON.parse(text) as { statusCode?: unknown; headers?: Record<string, unknown> };
    if (typeof meta.statusCode === 'number') this.statusCode = meta.statusCode;
    for (const [k, v] of Object.entries(meta.headers ?? {})) if (k.toLowerCase() === 'content-type') this.contentType = String(v);
  }

  /** One chunk the handler wrote. */
  write(chunk: unknown, encoding: unknown): void {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    // The runtime's default type is octet-stream, which most handlers writing text never change.
    this.mode ??=
      !this.contentType || this.contentType === 'application/octet-stream' || isTextContentType(this.contentType) ? 'text' : 'binary';
    if (typeof chunk === 'string' && typeof encoding === 'string' && encoding !== 'utf8' && encoding !== 'utf-8')
      chunk = Buffer.from(chunk, encoding as BufferEncoding);
    if (this.mode === 'text') this.ro.addOutputChunk(chunk, undefined, this.contentType);
    else this.bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : ((chunk as Uint8Array).byteLength ?? 0);
  }

  /** The stream is over: a binary body is described by its size. */
  finish(): void {
    if (this.mode === 'binary') this.ro.setOutput(describeBinary(this.bytes, this.contentType), undefined, this.contentType);
  }
}

/** The stream the handler gets: every write recorded into `output`, everything else passed through. */
export function observedStream<S extends object>(stream: S, output: StreamOutput, guard: AdapterGuard): S {
  const target = stream as Record<PropertyKey, unknown>;
  const wrapped: Record<string, Fn> = {
    write: (...args) => {
      guard.run(() => output.write(args[0], args[1]));
      return (target.write as Fn).apply(stream, args);
    },
    end: (...args) => {
      guard.run(() => output.write(args[0], args[1]));
      return (target.end as Fn).apply(stream, args);
    },
    setContentType: (...args) => {
      guard.run(() => output.setContentType(args[0]));
      return (target.setContentType as Fn).apply(stream, args);
    },
  };
  return new Proxy(stream, {
    get(t, prop) {
      if (typeof prop === 'string' && Object.hasOwn(wrapped, prop) && typeof target[prop] === 'function') return wrapped[prop];
      const value = Reflect.get(t, prop, t);
      // Methods run on the stream itself: its internals are not the proxy's.
      return typeof value === 'function' ? value.bind(t) : value;
    },
    set(t, prop, value) {
      // The runtime writes the HTTP prelude through this hook before the first chunk: read it on the way.
      if (prop === '_onBeforeFirstWrite' && typeof value === 'function') {
        const hook = value as (write: Fn) => unknown;
        let first = true;
        return Reflect.set(t, prop, (write: Fn) =>
          hook((chunk: unknown) => {
            if (first) guard.run(() => output.prelude(chunk));
            first = false;
            return write(chunk);
          }),
        );
      }
      return Reflect.set(t, prop, value);
    },
  });
}
