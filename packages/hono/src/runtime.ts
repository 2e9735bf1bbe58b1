/**
 * What the runtime under Hono offers around one request, read from the `Context` without
 * importing any runtime: its `waitUntil` (Workers and other serverless hosts), its bindings (a
 * Worker's `env`), its signal that the request is over, and, under `Deno.serve`, the body the
 * handler read (Deno warns about the legacy abort of `request.signal` as soon as a request is
 * cloned, so obs reads no copy of the body there).
 */
import type { WaitUntil } from '@obs/core/http';
import type { Context } from 'hono';

/** `c.executionCtx.waitUntil` where the runtime has one (Hono's getter throws elsewhere). */
export function waitUntilOf(c: Context): WaitUntil | undefined {
  try {
    const ctx = c.executionCtx as { waitUntil?: WaitUntil } | undefined;
    return typeof ctx?.waitUntil === 'function' ? (promise) => ctx.waitUntil!(promise) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Resolves when the runtime is done with the request, where it says so: `@hono/node-server`'s
 * response closed, Deno's `info.completed`, or the request's signal aborted (the client left).
 * Undefined where none is available: the fetch layer's own timer then ends an unread body.
 */
export function requestEnded(c: Context): Promise<unknown> | undefined {
  const env = c.env as { outgoing?: NodeOutgoing; completed?: Promise<unknown> } | undefined;
  const outgoing = env?.outgoing;
  if (outgoing && typeof outgoing.once === 'function') return new Promise<void>((resolve) => outgoing.once('close', () => resolve()));
  if (env?.completed && typeof env.completed.then === 'function') return env.completed;
  const signal = c.req.raw.signal as AbortSignal | undefined;
  if (!signal || typeof signal.addEventListener !== 'function') return undefined;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
}

/**
 * Under `Deno.serve` (its handler info has `completed`): where the input's body comes from once
 * the handler returned, instead of a copy read alongside it. Hono keeps what the handler read
 * (`c.req.json()`, `text()`, `parseBody()`...) and gives it again as text; a body the handler never
 * read is not recorded. Undefined elsewhere: the copy is read as usual.
 */
export function bodyAfterHandler(c: Context): (() => Promise<Request | undefined>) | undefined {
  const env = c.env as { completed?: unknown } | undefined;
  const deno = (globalThis as { Deno?: unknown }).Deno;
  if (!deno || !(env?.completed instanceof Promise)) return undefined;
  return async () => {
    const raw = c.req.raw;
    const cache = (c.req as unknown as { bodyCache?: Record<string, unknown> }).bodyCache;
    if (!cache || Object.keys(cache).length === 0) return undefined;
    const contentType = raw.headers.get('content-type') ?? '';
    // Form data becomes a request of its own (its boundary is not the original's); the rest text.
    if (/multipart\/form-data/i.test(contentType)) return new Request(raw.url, { method: raw.method, body: await c.req.formData() });
    const headers = contentType ? { 'content-type': contentType } : undefined;
    return new Request(raw.url, { method: raw.method, headers, body: await c.req.text() });
  };
}

/** `@hono/node-server`'s `ServerResponse`, structurally. */
interface NodeOutgoing {
  once(event: 'close', listener: () => void): unknown;
}

/** `c.env` when it is an object: a Worker's bindings (elsewhere the server's own objects, whose non-string values obs ignores). */
export function bindingsOf(c: Context): Record<string, unknown> | undefined {
  const env = c.env as unknown;
  return env && typeof env === 'object' ? (env as Record<string, unknown>) : undefined;
}
