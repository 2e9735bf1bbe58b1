/**
 * A stand-in OpenAI API for the Agents SDK tests, on `@obs/local-server/testing`'s stand-in (a
 * real local HTTP server): each test scripts the model's turns (text, function calls), and each
 * request takes the next turn and answers it in the wire format it asked for: `/v1/responses` as
 * JSON or, for `stream: true`, as the Responses API's server-sent events; `/v1/chat/completions`
 * as a Chat Completions JSON body. `/v1/traces/ingest` (OpenAI's trace export) is recorded. Every
 * request is kept.
 */
import { type StandInCall, startStandInApi } from '@obs/local-server/testing';

/** One model turn: what the model answers. */
export type Turn = { text: string } | { call: string; args: Record<string, unknown> };

export const USAGE = {
  input_tokens: 30,
  input_tokens_details: { cached_tokens: 10 },
  output_tokens: 12,
  output_tokens_details: { reasoning_tokens: 2 },
  total_tokens: 42,
};
/** USAGE in obs's disjoint buckets. */
export const USAGE_DETAILS = { input: 20, input_cache_read: 10, output: 10, output_reasoning: 2, total: 42 };

export interface StandIn {
  baseURL: string;
  /** Every request, in order (`path` with its `/v1`). */
  requests: StandInCall[];
  /** The turns the next requests answer, in order. */
  script(...turns: Turn[]): void;
  close(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
  const turns: Turn[] = [];
  let n = 0;
  const api = await startStandInApi({ notFound: (path) => ({ error: { message: `no ${path}` } }) });
  // Both model endpoints take the next turn from one script, as one conversation would.
  const next = () => ({ turn: turns.shift() ?? { text: 'nothing scripted' }, id: ++n });
  api.reply('/v1/traces/ingest', { status: 204, json: null });
  api.reply('/v1/chat/completions', () => {
    const { turn, id } = next();
    return { json: chatCompletion(turn, id) };
  });
  api.reply('/v1/responses', ({ body }) => {
    const { turn, id } = next();
    const response = { ...responsesResponse(turn, id), instructions: body['instructions'] ?? null };
    return body['stream'] === true ? { chunks: responseEvents(turn, id, response), contentType: 'text/event-stream' } : { json: response };
  });
  return {
    baseURL: `${api.url}/v1`,
    requests: api.calls,
    script: (...t) => void turns.splice(0, turns.length, ...t),
    close: () => api.close(),
  };
}

/** The Responses API's server-sent events of a streamed answer: created, the text in deltas, completed. */
function responseEvents(turn: Turn, id: number, response: Record<string, unknown>): string[] {
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } },
  ];
  if ('text' in turn) {
    for (const delta of turn.text.match(/.{1,4}/gs) ?? []) {
      events.push({ type: 'response.output_text.delta', item_id: `msg_${id}`, output_index: 0, content_index: 0, delta, logprobs: [] });
    }
  }
  events.push({ type: 'response.completed', response });
  return events.map((e, seq) => `event: ${String(e['type'])}\ndata: ${JSON.stringify({ ...e, sequence_number: seq })}\n\n`);
}

function responsesResponse(turn: Turn, id: number): Record<string, unknown> {
  const output =
    'text' in turn
      ? [
          {
            type: 'message',
            id: `msg_${id}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: turn.text, annotations: [] }],
          },
        ]
      : [
          {
            type: 'function_call',
            id: `fc_${id}`,
            call_id: `call_${id}`,
            name: turn.call,
            arguments: JSON.stringify(turn.args),
            status: 'completed',
          },
        ];
  return {
    id: `resp_${id}`,
    object: 'response',
    created_at: 1,
    model: 'gpt-stand-in-2026',
    status: 'completed',
    output,
    usage: USAGE,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    temperature: 0.2,
  };
}

function chatCompletion(turn: Turn, id: number): Record<string, unknown> {
  const message =
    'text' in turn
      ? { role: 'assistant', content: turn.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: `call_${id}`, type: 'function', function: { name: turn.call, arguments: JSON.stringify(turn.args) } }],
        };
  return {
    id: `chatcmpl_${id}`,
    object: 'chat.completion',
    created: 1,
    model: 'gpt-stand-in-2026',
    choices: [{ index: 0, message, finish_reason: 'text' in turn ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42, prompt_tokens_details: { cached_tokens: 10 } },
  };
}
