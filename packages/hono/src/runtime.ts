/**
 * What the runtime under Hono offers around one request, read from the `Context` without
 * importing any runtime: its `waitUntil` (Workers and other serverless hosts), its bindings (a
 * Worker's `env`), and its signal that the request is over.
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

/** `@hono/node-server`'s `ServerResponse`, structurally. */
interface NodeOutgoing {
  once(event: 'close', listener: () => void): unknown;
}

/** `c.env` when it is an object: a Worker's bindings (elsewhere the server's own objects, whose non-string values obs ignores). */
export function bindingsOf(c: Context): Record<string, unknown> | undefined {
  const env = c.env as unknown;
  return env && typeof env === 'object' ? (env as Record<string, unknown>) : undefined;
}
