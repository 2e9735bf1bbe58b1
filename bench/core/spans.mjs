// Realistic obs spans for the core benches, made by @obs/core itself through its public API.
//
// Span mix per "request" (what the Express and LangChain benches send): an HTTP root observation
// (HttpObserver: method, path, route, JSON input and output, status code) with a child span of
// another tracer; a LangChain-like chain -> generation pair (messages as JSON input, model,
// usage, metadata) with user/session ids.
import { context, trace } from '@opentelemetry/api';
import { ObsSpanProcessor, propagateAttributes, startObservation } from '@obs/core';
import { HttpObserver } from '@obs/core/http';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** A registered SDK provider whose obs processor hands every span it exports to `collected`. */
function collectingProvider() {
  const collected = [];
  const processor = new ObsSpanProcessor({
    exporter: {
      export: (spans, cb) => {
        collected.push(...spans);
        cb({ code: 0 });
      },
      shutdown: async () => {},
    },
    flushAt: 100_000,
    flushInterval: 3600,
    environment: 'production',
    release: 'v1.4.2',
  });
  const provider = new NodeTracerProvider({ spanProcessors: [processor] });
  provider.register();
  return { collected, processor, provider };
}

/** At least `count` finished spans, in the order they ended. */
export async function makeSpans(count) {
  // Real spans: the obs processor in front of an exporter that just keeps them.
  const { collected, processor, provider } = collectingProvider();
  const appTracer = trace.getTracer('bench-app');
  const observer = new HttpObserver({ traceIdHeader: false });

  function request(i) {
    const ro = observer.start({ req: {}, method: 'POST', path: `/chat/${i}` });
    ro.setRoute('/chat/:id');
    context.with(ro.context, () => {
      const child = appTracer.startSpan('answer');
      child.setAttribute('answer.length', 12 + (i % 7));
      child.end();
    });
    ro.setInput({ message: `hello number ${i}, how are you today?`, stream: false }, { lang: 'en' });
    ro.setOutput({ answer: `echo ${i}: hello number ${i}, how are you today?` }, {}, 'application/json');
    ro.finish({ statusCode: 200 });
  }

  function llmCall(i) {
    propagateAttributes({ userId: `user-${i % 50}`, sessionId: `session-${i % 200}` }, () => {
      const chain = startObservation('RunnableSequence', { input: { question: `What is ${i} times 6?` } }, { asType: 'chain' });
      const gen = startObservation(
        'FakeListChatModel',
        {
          input: [
            { role: 'system', content: 'You are a concise assistant.' },
            { role: 'user', content: `What is ${i} times 6? Answer with a number only, then explain in one sentence.` },
          ],
          model: 'gpt-4o-mini',
          modelParameters: { temperature: 0.2, max_tokens: 256 },
          metadata: { ls_provider: 'openai', ls_model_type: 'chat', tags: ['bench'] },
        },
        { asType: 'generation', parentSpanContext: chain.otelSpan.spanContext() },
      );
      gen.update({
        output: { role: 'assistant', content: `${i * 6}. Because ${i} sixes make ${i * 6}.` },
        usageDetails: { input: 31, output: 14, total: 45 },
      });
      gen.end();
      chain.update({ output: `${i * 6}.` });
      chain.end();
    });
  }

  let n = 0;
  while (collected.length < count) {
    if (n % 2 === 0) request(n);
    else llmCall(n);
    n++;
    if (n % 256 === 0) await processor.forceFlush();
  }
  await processor.forceFlush();
  await provider.shutdown();
  return collected;
}

// Request traces carrying ~2.5 KB of input/output text (issue 16, item 4).

const WORDS =
  'the a model answer question user assistant token context window retrieval document summary latency request response stream chunk embedding vector search index score prompt template system message tool call result error retry timeout cache hit miss batch queue export span trace'.split(
    ' ',
  );

/** ~`bytes` of English-like text, different for every `seed` (a small LCG picks the words). */
export function text(seed, bytes) {
  let x = (seed * 2654435761) >>> 0;
  let out = '';
  while (out.length < bytes) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out += `${WORDS[x % WORDS.length]}${x % 11 === 0 ? '. ' : ' '}`;
  }
  return out;
}

/** `count` finished spans: HTTP roots with ~1.25 KB of JSON input and ~1.25 KB of output, and their child. */
export async function makeTextSpans(count) {
  const { collected, processor, provider } = collectingProvider();
  const tracer = trace.getTracer('bench-app');
  const observer = new HttpObserver({ traceIdHeader: false, maxCaptureBytes: 100_000 });
  let i = 0;
  while (collected.length < count) {
    if (i > count * 4 + 256) throw new Error('no spans collected: is the provider registered?');
    const req = { method: 'POST', url: `/chat/${i}`, body: { message: text(2 * i, 1250) }, query: {} };
    const ro = observer.start({ req, method: 'POST', path: `/chat/${i}` });
    context.with(ro.context, () => tracer.startSpan('answer').end());
    ro.setRoute('/chat/:id');
    ro.setInput(req.body);
    ro.setOutput({ answer: text(2 * i + 1, 1250) }, undefined, 'application/json');
    ro.finish({ statusCode: 200 });
    i++;
    if (i % 128 === 0 || collected.length + 2 * (i % 128) >= count) await processor.forceFlush();
  }
  await processor.forceFlush();
  await provider.shutdown();
  return collected.slice(0, count);
}
