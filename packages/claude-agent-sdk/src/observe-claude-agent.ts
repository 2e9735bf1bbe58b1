/**
 * `observeClaudeAgent(query)`: the Claude Agent SDK's `query` function, observed. Each call's
 * messages are read as the app iterates them (query-trace.ts turns them into observations); the
 * app gets the SDK's own `Query` object behind a `Proxy` that sees its iteration, so every control
 * method (`interrupt()`, `setPermissionMode()`, ...) stays as it was.
 *
 * To read each model turn's final output tokens the wrapper asks the SDK for the stream's events
 * (`includePartialMessages: true`) when the app did not set that option, and hands the app none of
 * them; an app that sets it gets them as before.
 */
import { getObsHandle, initObs } from '@obs/core';
import { AdapterGuard } from '@obs/core/kit';
import { QueryTrace } from './query-trace.js';

/** Options of {@link observeClaudeAgent}. */
export interface ObserveClaudeAgentOptions {
  /** Name of each query's root observation; default `claude-agent`. */
  name?: string;
  /** Metadata on each query's root observation. */
  metadata?: Record<string, unknown>;
}

type QueryParams = { prompt: unknown; options?: Record<string, unknown> };
type AnyIterator = AsyncIterator<unknown> & Record<string | symbol, unknown>;

const guard = new AdapterGuard('@obs/claude-agent-sdk');

/**
 * Observes the Claude Agent SDK's `query` function: returns one with the same signature whose
 * every call is an obs `agent` with its model turns (`generation`), tool calls (`tool`) and
 * subagents (nested `agent`), nested under the observation active where it is called. obs starts
 * (`initObs()`) at the first call if the app has not started it.
 *
 * @example
 * ```ts
 * import { query as sdkQuery } from '@anthropic-ai/claude-agent-sdk';
 * const query = observeClaudeAgent(sdkQuery);
 * for await (const message of query({ prompt: 'Summarise README.md' })) console.log(message.type);
 * ```
 */
export function observeClaudeAgent<Q extends (params: never) => AsyncIterator<unknown>>(
  query: Q,
  options: ObserveClaudeAgentOptions = {},
): Q {
  const observed = function (this: unknown, params: QueryParams) {
    const hideEvents = params?.options?.['includePartialMessages'] === undefined;
    const trace = guard.run(() => {
      getObsHandle() ?? initObs();
      return new QueryTrace(params?.prompt, options);
    });
    if (!trace) return (query as unknown as (p: QueryParams) => unknown).call(this, params);
    const effective = hideEvents ? { ...params, options: { ...params.options, includePartialMessages: true } } : params;
    let result: AnyIterator;
    try {
      result = (query as unknown as (p: QueryParams) => AnyIterator).call(this, effective);
    } catch (err) {
      guard.run(() => trace.end({ error: err }));
      throw err;
    }
    return observeIterator(result, trace, hideEvents);
  };
  return observed as unknown as Q;
}

/** The query behind a Proxy whose `next`, `return` and `throw` feed the trace. */
function observeIterator(target: AnyIterator, trace: QueryTrace, hideEvents: boolean): AnyIterator {
  const next = async (...args: [] | [unknown]): Promise<IteratorResult<unknown>> => {
    for (;;) {
      let step: IteratorResult<unknown>;
      try {
        step = await target.next(...args);
      } catch (err) {
        guard.run(() => trace.end({ error: err }));
        throw err;
      }
      if (step.done) {
        guard.run(() => trace.end());
        return step;
      }
      guard.run(() => trace.read(step.value));
      if (hideEvents && (step.value as { type?: unknown } | null)?.type === 'stream_event') continue;
      return step;
    }
  };
  const wrapped: Record<string | symbol, unknown> = {
    next,
    return: async (value?: unknown) => {
      guard.run(() => trace.end({ stopped: true }));
      return typeof target.return === 'function' ? target.return(value) : { done: true, value };
    },
    throw: async (err?: unknown) => {
      guard.run(() => trace.end({ error: err }));
      if (typeof target.throw === 'function') return target.throw(err);
      throw err;
    },
  };
  const proxy: AnyIterator = new Proxy(target, {
    get(t, prop) {
      if (prop === Symbol.asyncIterator) return () => proxy;
      if (Object.hasOwn(wrapped, prop)) return wrapped[prop];
      const value = Reflect.get(t, prop, t);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
  return proxy;
}
