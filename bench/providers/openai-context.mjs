// What an async context manager alone costs a call, with no tracer at all: the unwrapped `openai`
// 7 client, and the same client with OpenTelemetry's `AsyncLocalStorageContextManager`
// registered and each call run in a context of its own (what any tracer whose spans nest across
// `await` does). On Node.js 22 `AsyncLocalStorage` runs async hooks on every promise the SDK and
// undici make. obs registers such a manager (observations nest), and so do the peers' setups as
// their docs set them up (`provider.register()`, `NodeSDK`): this is the part of every setup's
// figure that is the context manager's.
//
//   node bench/providers/instructions.mjs --provider openai-context --setups 0,1 [--from 200 --to 500]
import * as openai from './openai.mjs';

export const { label, answer, routes, call } = openai;

export const setups = [
  openai.setups[0],
  {
    name: 'openai 7, unwrapped, with an AsyncLocalStorage context manager',
    create: async (ctx) => {
      const { context, createContextKey, ROOT_CONTEXT } = await import('@opentelemetry/api');
      const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      const { client: inner } = await openai.setups[0].create(ctx);
      const key = createContextKey('bench call');
      const create = (...args) => context.with(ROOT_CONTEXT.setValue(key, true), () => inner.chat.completions.create(...args));
      return { client: { chat: { completions: { create } } }, flush: async () => {} };
    },
  },
];
