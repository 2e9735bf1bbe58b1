/**
 * A fetch response passed on as it streams: the same status and headers, its body followed by
 * the one end-once wrapper (`tracing/end-once.ts`) so the request's observation hears its text
 * and how it ended, with nothing buffered or read ahead.
 */
import type { Context } from '@opentelemetry/api';
import { watchReadableStream } from '../../tracing/end-once.js';
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
  const text = isTextContentType(contentType);
  let bytes = 0;
  return watchReadableStream(
    source,
    {
      start: () => observer.start?.(),
      item(value) {
        if (text) observer.chunk(value, contentType);
        else bytes += value?.byteLength ?? 0;
      },
      end(how, error) {
        if (!text) observer.binary(describeBinary(bytes, contentType));
        observer.end(how, error);
      },
    },
    ctx,
  );
}
