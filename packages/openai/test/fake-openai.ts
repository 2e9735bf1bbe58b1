/**
 * A local OpenAI-compatible HTTP server for the tests: `/v1/chat/completions`, `/v1/responses`
 * and `/v1/embeddings` answer JSON or server-sent events, as each test scripts them; every
 * request is recorded (path, headers, body).
 */
import { type StandInCall, type StandInReply, startStandInApi } from '@obs/local-server/testing';

/** One answer: a JSON body (with a status), or SSE events (`data:` lines, then `[DONE]` unless `done: false`). */
export type Reply =
  | { status?: number; json: unknown }
  | {
      sse: unknown[];
      /** Milliseconds before each event. */
      delayMs?: number;
      /** Send `data: [DONE]` at the end (Chat Completions); default true. */
      done?: boolean;
      /** After the events, keep the connection open until the client goes away. */
      hang?: boolean;
      /** After the events, destroy the socket (a broken stream). */
      breakOff?: boolean;
    };

export type RecordedCall = StandInCall;

export interface FakeOpenAI {
  baseURL: string;
  calls: RecordedCall[];
  /** How the next requests are answered, by path (`/chat/completions`, ...). */
  reply(path: string, replies: Reply | Reply[]): void;
  close(): Promise<void>;
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const api = await startStandInApi({
    headers: { 'x-request-id': 'req_test' },
    notFound: (path) => ({ error: { message: `no reply scripted for ${path}`, type: 'invalid_request_error' } }),
  });
  return {
    baseURL: `${api.url}/v1`,
    calls: api.calls,
    // The tests name paths below /v1.
    reply(path, replies) {
      api.reply(`/v1${path}`, (Array.isArray(replies) ? replies : [replies]).map(framed));
    },
    close: () => api.close(),
  };
}

/** A reply in OpenAI's framing: `data:` lines (with `event:` for typed Responses events), then `[DONE]`. */
function framed(reply: Reply): StandInReply {
  if ('json' in reply) return reply;
  const { sse, done, ...timing } = reply;
  const chunks = sse.map((event) => {
    const type = typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
    return `${typeof type === 'string' ? `event: ${type}\n` : ''}data: ${JSON.stringify(event)}\n\n`;
  });
  if (done !== false && !timing.hang && !timing.breakOff) chunks.push('data: [DONE]\n\n');
  return { ...timing, contentType: 'text/event-stream', chunks };
}

/** A chat completion with the given message and usage. */
export function completion(message: Record<string, unknown>, usage?: Record<string, unknown>, finish = 'stop'): Record<string, unknown> {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-test-2026',
    choices: [
      { index: 0, message: { role: 'assistant', content: null, refusal: null, ...message }, finish_reason: finish, logprobs: null },
    ],
    ...(usage ? { usage } : {}),
  };
}

/** Chat completion chunks streaming `text` in two deltas, then a usage chunk. */
export function chatChunks(text: string, usage?: Record<string, unknown>): unknown[] {
  const base = { id: 'chatcmpl-2', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-test-2026' };
  const half = Math.ceil(text.length / 2);
  return [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: { content: text.slice(0, half) }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: { content: text.slice(half) }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ...(usage ? [{ ...base, choices: [], usage }] : []),
  ];
}

/** A Responses API response with the given output items and usage. */
export function response(output: unknown[], usage?: Record<string, unknown>, status = 'completed'): Record<string, unknown> {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    status,
    model: 'gpt-test-2026',
    output,
    ...(usage ? { usage } : {}),
    ...(status === 'incomplete' ? { incomplete_details: { reason: 'max_output_tokens' } } : {}),
  };
}

export const outputText = (text: string) => ({
  type: 'message',
  id: 'msg_1',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [] }],
});
