// The Gemini row: `models.generateContent` (a system instruction and a user message) through
// `@google/genai` 3.x, unwrapped, through `@obs/google-genai`, and through the peers that wrap the
// same SDK: Sentry's `instrumentGoogleGenAIClient` (`@sentry/node` 10, its envelopes to the
// stand-in's sink: no Sentry server) and LangSmith's `wrapGemini` (its runs to the stand-in's
// sink). OpenInference has no Google Gen AI instrumentation for JavaScript. Each setup runs in its
// own process. `@google/genai` records no OpenTelemetry spans of its own.
export const label = 'models.generateContent';
export const answer = 'Refunds take five business days.';

const usageMetadata = { promptTokenCount: 24, cachedContentTokenCount: 8, candidatesTokenCount: 7, totalTokenCount: 31 };
const response = (text, last = true) => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
  ...(last ? { usageMetadata } : {}),
  modelVersion: 'gemini-bench-001',
  responseId: 'resp_bench',
});
const words = answer.split(' ');
const sse = words.map((w, i) => `data: ${JSON.stringify(response(i === 0 ? w : ` ${w}`, i === words.length - 1))}\r\n\r\n`).join('');

export const routes = {
  '/v1/models/gemini-bench:generateContent': { json: JSON.stringify(response(answer)) },
  '/v1/models/gemini-bench:streamGenerateContent': {
    json: '',
    stream: { contentType: 'text/event-stream', body: sse },
    isStream: () => true,
  },
};

const request = {
  model: 'gemini-bench',
  contents: 'How long do refunds take?',
  config: { systemInstruction: 'Answer briefly.', temperature: 0.2, maxOutputTokens: 256 },
};

export async function call(client, stream) {
  if (!stream) return (await client.models.generateContent(request)).text;
  let text = '';
  for await (const chunk of await client.models.generateContentStream(request)) text += chunk.text ?? '';
  return text;
}

const sdk = async (ctx) => {
  const { GoogleGenAI } = await import('@google/genai');
  return new GoogleGenAI({ apiKey: 'AIza-bench', httpOptions: { baseUrl: ctx.standInURL } });
};

export const setups = [
  {
    name: '@google/genai 3.x, unwrapped',
    create: async (ctx) => ({ client: await sdk(ctx), flush: async () => {} }),
  },
  {
    name: '@obs/google-genai observeGoogleGenAI',
    scope: 'obs-sdk',
    create: async (ctx) => {
      const { initObs } = await import('@obs/core');
      const { observeGoogleGenAI } = await import('@obs/google-genai');
      const obs = initObs({ ...ctx.obs, flushOnExit: false });
      return { client: observeGoogleGenAI(await sdk(ctx)), flush: () => obs.flush() };
    },
  },
  {
    name: 'Sentry instrumentGoogleGenAIClient (@sentry/node 10)',
    sink: 'sentry',
    create: async (ctx) => {
      const Sentry = await import('@sentry/node');
      const dsn = `http://public@${new URL(ctx.standInURL).host}/1`;
      Sentry.init({ dsn, tracesSampleRate: 1, sendDefaultPii: true, defaultIntegrations: false });
      const client = Sentry.instrumentGoogleGenAIClient(await sdk(ctx), { recordInputs: true, recordOutputs: true });
      return { client, flush: () => Sentry.flush(10_000) };
    },
  },
  {
    name: 'LangSmith wrapGemini',
    sink: 'langsmith',
    create: async (ctx) => {
      const { Client } = await import('langsmith');
      const { wrapGemini } = await import('langsmith/wrappers/gemini');
      const ls = new Client({ apiUrl: ctx.standInURL, apiKey: 'ls-bench' });
      const client = wrapGemini(await sdk(ctx), { client: ls, tracingEnabled: true });
      return { client, flush: () => ls.awaitPendingTraceBatches() };
    },
  },
];
