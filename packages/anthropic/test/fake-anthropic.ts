/**
 * A local stand-in for Anthropic's Messages API, speaking its wire format: `POST /v1/messages`
 * answers a Message as JSON, or, when the request streams, server-sent events with their
 * `event:` names (`message_start`, `content_block_start`, `ping`, `content_block_delta`,
 * `content_block_stop`, `message_delta`, `message_stop`, and `error` mid-stream); errors as
 * `{ type: 'error', error: { type, message } }` with a `request-id` header. Other paths
 * (`/v1/messages/batches`, `/v1/messages/count_tokens`) answer what each test scripts. Every
 * request is recorded (path, headers, body).
 */
import { type StandInCall, type StandInReply, startStandInApi } from '@obs/local-server/testing';

type Dict = Record<string, unknown>;

/** One answer: a JSON body (with a status), or SSE events. */
export type Reply =
  | { status?: number; json: unknown }
  | {
      sse: Dict[];
      /** Milliseconds before each event. */
      delayMs?: number;
      /** After the events, keep the connection open until the client goes away. */
      hang?: boolean;
      /** After the events, destroy the socket (a broken stream). */
      breakOff?: boolean;
    };

export interface FakeAnthropic {
  baseURL: string;
  calls: StandInCall[];
  /** How the next requests to `path` are answered: in turn (the last one repeats), or by a function of the body. */
  reply(path: string, replies: Reply | Reply[] | ((body: Dict) => Reply)): void;
  close(): Promise<void>;
}

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const api = await startStandInApi({
    headers: { 'request-id': 'req_test' },
    notFound: (path) => apiError('not_found_error', `no reply scripted for ${path}`),
  });
  return {
    baseURL: api.url,
    calls: api.calls,
    reply(path, replies) {
      if (typeof replies === 'function') api.reply(path, (call) => framed(replies(call.body)));
      else api.reply(path, (Array.isArray(replies) ? replies : [replies]).map(framed));
    },
    close: () => api.close(),
  };
}

/** A reply in Anthropic's framing: SSE events with their `event:` names. */
function framed(reply: Reply): StandInReply {
  if ('json' in reply) return reply;
  const { sse, ...timing } = reply;
  return {
    ...timing,
    contentType: 'text/event-stream',
    headers: { 'request-id': 'req_stream' },
    chunks: sse.map((e) => `event: ${String(e['type'])}\ndata: ${JSON.stringify(e)}\n\n`),
  };
}

/** Anthropic's error body. */
export function apiError(type: string, message: string): Dict {
  return { type: 'error', error: { type, message }, request_id: 'req_test' };
}

/** Usage as the API reports it: `input_tokens` without the cache's. */
export const USAGE = {
  input_tokens: 12,
  cache_read_input_tokens: 30,
  cache_creation_input_tokens: 8,
  output_tokens: 20,
  output_tokens_details: { thinking_tokens: 6 },
  service_tier: 'standard',
};
/** The same usage in obs's buckets. */
export const USAGE_DETAILS = { input: 12, input_cache_read: 30, input_cache_write: 8, output: 14, output_reasoning: 6, total: 70 };

/** A Message with the given content blocks. */
export function message(content: Dict[], usage: Dict = USAGE, stopReason = 'end_turn'): Dict {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test-2026',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
}

export const text = (t: string): Dict => ({ type: 'text', text: t, citations: null });
export const toolUse = (id: string, name: string, input: unknown): Dict => ({ type: 'tool_use', id, name, input });
export const thinking = (t: string): Dict => ({ type: 'thinking', thinking: t, signature: 'sig' });

/** The events the API streams for `msg`: each block's text, thinking or tool input in two deltas. */
export function events(msg: Dict): Dict[] {
  const usage = msg['usage'] as Dict;
  const blocks = msg['content'] as Dict[];
  const out: Dict[] = [
    {
      type: 'message_start',
      message: { ...msg, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1, output_tokens_details: null } },
    },
  ];
  blocks.forEach((block, index) => {
    const halves = (s: string) => [s.slice(0, Math.ceil(s.length / 2)), s.slice(Math.ceil(s.length / 2))];
    if (block['type'] === 'text') {
      out.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      if (index === 0) out.push({ type: 'ping' });
      for (const part of halves(String(block['text'])))
        out.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: part } });
    } else if (block['type'] === 'thinking') {
      out.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const part of halves(String(block['thinking']))) {
        out.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: part } });
      }
      out.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: 'sig' } });
    } else if (block['type'] === 'tool_use') {
      out.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      for (const part of halves(JSON.stringify(block['input']))) {
        out.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } });
      }
    }
    out.push({ type: 'content_block_stop', index });
  });
  out.push({
    type: 'message_delta',
    delta: { stop_reason: msg['stop_reason'], stop_sequence: null },
    usage: { output_tokens: usage['output_tokens'], output_tokens_details: usage['output_tokens_details'] ?? null },
  });
  out.push({ type: 'message_stop' });
  return out;
}
