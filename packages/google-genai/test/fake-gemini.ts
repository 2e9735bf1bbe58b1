/**
 * A local stand-in for the Gemini API, speaking its wire format: `POST
 * /{version}/models/{model}:generateContent` answers a `GenerateContentResponse` as JSON,
 * `:streamGenerateContent?alt=sse` the same chunks as server-sent events (`data:` lines, CRLF
 * separated, as the API sends them), `:batchEmbedContents` the embeddings; errors as Google's
 * `{ error: { code, message, status } }`. `@google/genai` 3.x calls `/v1/`, 1.x `/v1beta/`; the
 * stand-in answers both. Every request is recorded (path, query, headers, body).
 */
import { type StandInCall, type StandInReply, startStandInApi } from '@obs/local-server/testing';

type Dict = Record<string, unknown>;

/** One answer: a JSON body (with a status), or SSE chunks. */
export type Reply =
  | { status?: number; json: unknown }
  | { sse: Dict[]; delayMs?: number; hang?: boolean; breakOff?: boolean; json?: undefined };

export interface FakeGemini {
  baseUrl: string;
  calls: StandInCall[];
  /** How the next requests to `models/{model}:{method}` are answered, under either API version. */
  reply(method: string, replies: Reply | Reply[] | ((call: StandInCall) => Reply), model?: string): void;
  close(): Promise<void>;
}

export const MODEL = 'gemini-test';

export async function startFakeGemini(): Promise<FakeGemini> {
  const api = await startStandInApi({ notFound: (path) => apiError(404, 'NOT_FOUND', `no reply scripted for ${path}`) });
  return {
    baseUrl: api.url,
    calls: api.calls,
    reply(method, replies, model = MODEL) {
      for (const version of ['v1', 'v1beta']) {
        const path = `/${version}/models/${model}:${method}`;
        if (typeof replies === 'function') api.reply(path, (call) => framed(replies(call)));
        else api.reply(path, (Array.isArray(replies) ? replies : [replies]).map(framed));
      }
    },
    close: () => api.close(),
  };
}

function framed(reply: Reply): StandInReply {
  if (reply.json !== undefined) return reply as StandInReply;
  const { sse, ...timing } = reply as Extract<Reply, { sse: Dict[] }>;
  return { ...timing, contentType: 'text/event-stream', chunks: sse.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`) };
}

/** Google's error body. */
export function apiError(code: number, status: string, message: string): Dict {
  return { error: { code, message, status } };
}

export const USAGE = {
  promptTokenCount: 50,
  cachedContentTokenCount: 30,
  candidatesTokenCount: 14,
  thoughtsTokenCount: 6,
  totalTokenCount: 70,
  promptTokensDetails: [{ modality: 'TEXT', tokenCount: 50 }],
};
export const USAGE_DETAILS = { input: 20, input_cache_read: 30, output: 14, output_reasoning: 6, total: 70 };

/** A `GenerateContentResponse` with one candidate of these parts. */
export function response(parts: Dict[], usage: Dict = USAGE, finishReason = 'STOP'): Dict {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
    usageMetadata: usage,
    modelVersion: 'gemini-test-001',
    responseId: 'resp_1',
  };
}

/** The chunks the API streams for `res`: each text part in two halves, the usage and finish reason on the last. */
export function chunks(res: Dict): Dict[] {
  const candidate = (res['candidates'] as Dict[])[0]!;
  const parts = (candidate['content'] as Dict)['parts'] as Dict[];
  const out: Dict[] = [];
  const chunk = (part: Dict): Dict => ({
    candidates: [{ content: { role: 'model', parts: [part] }, index: 0 }],
    modelVersion: res['modelVersion'],
    responseId: res['responseId'],
  });
  for (const part of parts) {
    if (typeof part['text'] !== 'string') out.push(chunk(part));
    else {
      const t = part['text'];
      const half = Math.ceil(t.length / 2);
      out.push(chunk({ ...part, text: t.slice(0, half) }), chunk({ ...part, text: t.slice(half) }));
    }
  }
  const last = out.at(-1)!;
  (last['candidates'] as Dict[])[0]!['finishReason'] = candidate['finishReason'];
  last['usageMetadata'] = res['usageMetadata'];
  return out;
}
