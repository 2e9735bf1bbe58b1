// One setup of the LangChain bench in THIS process, `count` sequential invocations of the bench
// chain and then a flush of everything it exported, the local obs server in a child process: what
// instructions.mjs runs under valgrind, so that only the chain's process is counted. The setups are
// run.mjs's, with the same handler options.
//
//   node bench/langchain/invoke-one.mjs <empty|obs|obs-background|langfuse> <count>
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import { benchChain } from './chain.mjs';

const [variant = 'empty', count = '2000'] = process.argv.slice(2);
const server = fork(fileURLToPath(new URL('../lib/obs-server-process.mjs', import.meta.url)), [], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [conn] = await once(server, 'message');
const keys = { baseUrl: conn.url, publicKey: conn.publicKey, secretKey: conn.secretKey };
// As in run.mjs: a block never yields to the event loop, so every span waits for the flush.
process.env.OTEL_BSP_MAX_QUEUE_SIZE ??= '1000000';
// Batches by size only: under valgrind a timer would cut them at whatever a slowed-down second holds.
process.env.OBS_FLUSH_INTERVAL ??= '3600';

/**
 * The OpenTelemetry context manager every setup runs with, as in run.mjs (where obs's is registered
 * for the whole process) and in any app traced with OpenTelemetry (Langfuse's SDK is set up with
 * the OpenTelemetry Node SDK, which registers it). On Node 22 it is an `AsyncLocalStorage` whose
 * hooks run on every promise LangChain makes, once it was first used; the `with()` below does that.
 */
async function withContextManager() {
  const { context, ROOT_CONTEXT } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  context.with(ROOT_CONTEXT.setValue(Symbol('bench'), 1), () => {});
}

/** The handler of `variant` and how to wait for everything it sends. */
async function setup() {
  if (variant !== 'obs' && variant !== 'obs-background') await withContextManager();
  if (variant === 'empty') {
    class EmptyHandler extends BaseCallbackHandler {
      name = 'empty';
    }
    return { handler: new EmptyHandler(), flush: () => awaitAllCallbacks() };
  }
  if (variant === 'obs' || variant === 'obs-background') {
    const { initObs } = await import('@obs/core');
    const { CallbackHandler } = await import('@obs/langchain');
    initObs({ ...keys, flushOnExit: false });
    const handler = new CallbackHandler({ userId: 'bench-user', sessionId: 'bench-session', background: variant === 'obs-background' });
    return { handler, flush: () => handler.flush() };
  }
  if (variant === 'langfuse') {
    const { CallbackHandler } = await import('@langfuse/langchain');
    const { LangfuseSpanProcessor } = await import('@langfuse/otel');
    const { setLangfuseTracerProvider } = await import('@langfuse/tracing');
    const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
    const processor = new LangfuseSpanProcessor(keys);
    setLangfuseTracerProvider(new NodeTracerProvider({ spanProcessors: [processor] }));
    const handler = new CallbackHandler({ userId: 'bench-user', sessionId: 'bench-session' });
    return {
      handler,
      flush: async () => {
        await awaitAllCallbacks();
        await processor.forceFlush();
      },
    };
  }
  throw new Error(`unknown variant ${variant}`);
}

const { handler, flush } = await setup();
const chain = benchChain();
const c0 = process.cpuUsage();
// Flushed every 2,000 invocations, as run.mjs's blocks are: Langfuse's exporter refuses a flush of
// more than 30 batches at once.
for (let i = 0; i < Number(count); i++) {
  await chain.invoke({ question: `question ${i}` }, { callbacks: [handler] });
  if ((i + 1) % 2000 === 0) await flush();
}
await flush();
const cpu = process.cpuUsage(c0);
server.send('stats');
const [stats] = await once(server, 'message');
console.error(
  `${variant}: ${count} invocations, ${((cpu.user + cpu.system) / Number(count)).toFixed(1)} µs CPU/invocation, ${stats.spans} spans received`,
);
server.send('close');
await once(server, 'exit');
process.exit(0);
