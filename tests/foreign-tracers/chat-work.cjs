// What every foreign-tracer app shares: the request's LLM work (a LangChain chain with a fake chat
// model, traced by obs's handler unless NO_OBS, then an AI SDK call with a mock model), obs's init options, and the client side (one
// POST /chat over real HTTP, then one RESULT line: the request's obs trace id and what the app's
// own exporter received, for the test to compare with what the local obs server received).
const { CallbackHandler } = require('@obs/langchain');
const { ChatPromptTemplate } = require('@langchain/core/prompts');
const { StringOutputParser } = require('@langchain/core/output_parsers');
const { FakeListChatModel } = require('@langchain/core/utils/testing');
const { generateText } = require('ai');
const { MockLanguageModelV4 } = require('ai/test');
const { OpenTelemetry } = require('@ai-sdk/otel');
const { context } = require('@opentelemetry/api');
const { suppressTracing } = require('@opentelemetry/core');

const { noObs, obsInitOptions } = require('./obs-options.cjs');

const chain = ChatPromptTemplate.fromMessages([['human', 'Answer {question}']])
  .pipe(new FakeListChatModel({ responses: ['Refund approved.'] }))
  .pipe(new StringOutputParser());
const model = new MockLanguageModelV4({
  modelId: 'mock-gpt',
  doGenerate: async () => ({
    content: [{ type: 'text', text: 'Hello there' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: { total: 10, noCache: 10 }, outputTokens: { total: 4, text: 4 } },
    warnings: [],
  }),
});

/** The LLM work of one request: a LangChain run traced by obs's callback handler, then an AI SDK call. */
async function answerQuestion(question) {
  const a = await chain.invoke({ question }, { callbacks: noObs ? [] : [new CallbackHandler()] });
  const b = await generateText({
    model,
    prompt: 'Say hi',
    experimental_telemetry: { isEnabled: true, functionId: 'greet', integrations: [new OpenTelemetry()] },
  });
  return `${a} ${b.text}`;
}

/**
 * Sends the request to the app listening on `port`, then `close()`s the app (which must flush
 * obs), and prints the RESULT line.
 */
async function requestAndReport(port, mode, close) {
  // The test's own client call is not the app's traffic: no instrumentation records or propagates it.
  const res = await context.with(suppressTracing(context.active()), () =>
    fetch(`http://127.0.0.1:${port}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'refund?' }),
    }),
  );
  const body = await res.json();
  await close();
  const appSpans = globalThis.__appExport ? await globalThis.__appExport() : [];
  const traceId = res.headers.get('x-obs-trace-id');
  // Node.js 22's hook-based AsyncLocalStorage has `_propagate`; the async-context-frame one has not.
  const asyncContextFrame = !('_propagate' in require('node:async_hooks').AsyncLocalStorage.prototype);
  process.stdout.write(`RESULT ${JSON.stringify({ mode: mode(), traceId, body, appSpans, asyncContextFrame })}\n`);
}

module.exports = { answerQuestion, noObs, obsInitOptions, requestAndReport };
