// The app every foreign-tracer scenario runs (after its setup file was `--require`d): Express with
// obsMiddleware, a LangChain chain, an AI SDK call and an obs observation in one request, served
// over real HTTP. Prints one JSON line: the request's obs trace id and what the app's own
// exporter received, for the test to compare with what the local obs server received.
const { initObs, startActiveObservation } = require('@obs/core');
const { obsErrorHandler, obsMiddleware } = require('@obs/express');
const { CallbackHandler } = require('@obs/langchain');
const { ChatPromptTemplate } = require('@langchain/core/prompts');
const { StringOutputParser } = require('@langchain/core/output_parsers');
const { FakeListChatModel } = require('@langchain/core/utils/testing');
const { generateText } = require('ai');
const { MockLanguageModelV4 } = require('ai/test');
const { OpenTelemetry } = require('@ai-sdk/otel');
const express = require('express');

async function main() {
  const obs = initObs({ flushInterval: 0.05, flushOnExit: false, ...JSON.parse(process.env.OBS_INIT_OPTIONS ?? '{}') });
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
  const app = express();
  app.use(obsMiddleware({ identify: () => ({ userId: 'user-1', tags: ['api'] }) }));
  app.use(express.json());
  app.post('/chat', async (req, res) => {
    const answer = await startActiveObservation('answer', async () => {
      const a = await chain.invoke({ question: req.body.question }, { callbacks: [new CallbackHandler()] });
      const b = await generateText({
        model,
        prompt: 'Say hi',
        experimental_telemetry: { isEnabled: true, functionId: 'greet', integrations: [new OpenTelemetry()] },
      });
      return `${a} ${b.text}`;
    });
    res.json({ answer });
  });
  app.use(obsErrorHandler());
  const server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const res = await fetch(`http://127.0.0.1:${server.address().port}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question: 'refund?' }),
  });
  const body = await res.json();
  await new Promise((r) => server.close(r));
  await obs.flush();
  const appSpans = globalThis.__appExport ? await globalThis.__appExport() : [];
  process.stdout.write(`RESULT ${JSON.stringify({ mode: obs.mode, traceId: res.headers.get('x-obs-trace-id'), body, appSpans })}\n`);
  await obs.shutdown();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
