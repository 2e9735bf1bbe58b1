import { context, type Context } from '@opentelemetry/api';
import { describeBinary, isTextContentType } from '../capture-value.js';

/** How a response body ended. */
export type BodyEnd = 'done' | 'error' | 'cancelled';

/** What `observeResponse` reports as the body goes by. */
export interface BodyObserver {
  /** The client side asked for the body's first chunk (the runtime started sending it). */
  start?(): void;
  /** A chunk of a text body, as it passes to the client. */
  chunk(chunk: unknown, contentType: string | undefined): void;
  /** A description of a binary body (its bytes are counted, not kept). */
  binary(description: string): void;
  /** Called once: the body was fully read, failed, or the client went away. */
  end(how: BodyEnd, error?: unknown): void;
}

/**
 * The response to send instead of `res`: the same status, headers (plus `extraHeaders`) and body, whose
 * chunks pass through to the client as they come (nothing is buffered or delayed) while a copy of their
 * text is reported. The source is read inside `ctx`, so work a streaming body does lazily (a model call
 * in `pull`) nests under the request's observation.
 */
export function observeResponse(res: Response, extraHeaders: Record<string, string>, ctx: Context, observer: BodyObserver): Response {
  // Response.error() and opaque responses cannot be rebuilt; they carry nothing to record.
  if (res.type === 'error' || res.status === 0) {
    observer.end('done');
    return res;
  }
  const headers = new Headers(res.headers);
  for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
  const init: ResponseInit = { status: res.status, statusText: res.statusText, headers };
  if (!res.body) {
    observer.end('done');
    return new Response(null, init);
  }
  const contentType = res.headers.get('content-type') ?? undefined;
  return new Response(passThrough(res.body, ctx, contentType, observer), init);
}

function passThrough(
  source: ReadableStream<Uint8Array>,
  ctx: Context,
  contentType: string | undefined,
  observer: BodyObserver,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const text = isTextContentType(contentType);
  let bytes = 0;
  let started = false;
  let ended = false;
  const end = (how: BodyEnd, error?: unknown) => {
    if (ended) return;
    ended = true;
    if (!text) observer.binary(describeBinary(bytes, contentType));
    observer.end(how, error);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          observer.start?.();
        }
        try {
          const { done, value } = await context.with(ctx, () => reader.read());
          if (done) {
            end('done');
            controller.close();
            return;
          }
          if (text) observer.chunk(value, contentType);
          else bytes += value?.byteLength ?? 0;
          controller.enqueue(value);
        } catch (err) {
          end('error', err);
          controller.error(err);
        }
      },
      cancel(reason) {
        end('cancelled', reason);
        return reader.cancel(reason);
      },
    },
    // No read-ahead: a chunk is pulled from the source only when the client side asks for one.
    { highWaterMark: 0 },
  );
}
