/**
 * The one Anthropic Messages conversation both instrumentation suites script on the stand-in API
 * (OpenInference's instrumentation and the SDK's own GenAI spans must read the same turn the same
 * way): a reply with reasoning, text and a tool call and what obs reads of it, the tool result
 * sent back, a streamed answer, an API error.
 */
import { QUESTION, WEATHER_CALL } from './fixtures.js';
import type { Reply } from './stand-in-apis.js';

const TOOL_USE = { type: 'tool_use' as const, id: 'call-1', name: 'weather', input: { city: 'Paris' } };

/** A Messages API response of `model` (stopped for the tool when it calls one). */
export function anthropicMessage(model: string, content: unknown[], usage: Record<string, unknown>) {
  const stop = content.some((c) => (c as { type: string }).type === 'tool_use') ? 'tool_use' : 'end_turn';
  return { id: 'msg_1', type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage };
}

/** The assistant's turn with reasoning, text and the tool call, cache reads and writes in its usage. */
export const TOOL_TURN = {
  content: [{ type: 'thinking', thinking: 'The user wants weather.', signature: 'sig' }, { type: 'text', text: 'Let me check.' }, TOOL_USE],
  usage: { input_tokens: 50, cache_read_input_tokens: 40, cache_creation_input_tokens: 10, output_tokens: 30 },
  /** What obs reads of it: the output, and the usage in disjoint buckets. */
  output: { role: 'assistant', content: 'Let me check.', tool_calls: [WEATHER_CALL], reasoning: 'The user wants weather.' },
  usageDetails: { input: 50, input_cache_read: 40, input_cache_write: 10, output: 30, total: 130 },
};

/** The conversation after the tool ran: the question, the assistant's tool call, the tool result as user content. */
export const TOOL_RESULT_MESSAGES = [
  { role: 'user' as const, content: QUESTION },
  { role: 'assistant' as const, content: [TOOL_USE] },
  { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'call-1', content: 'sunny' }] },
];

/** A streamed answer "Hello there" in Anthropic's named SSE events; its usage reads as `{ input: 9, output: 2, total: 11 }`. */
export function streamedHelloThere(model: string): Reply {
  return {
    done: false,
    sse: [
      { type: 'message_start', message: { ...anthropicMessage(model, [], { input_tokens: 9, output_tokens: 1 }), stop_reason: null } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'there' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } },
      { type: 'message_stop' },
    ],
  };
}

/** A 400 `invalid_request_error` with the message "bad request body". */
export const INVALID_REQUEST: Reply = {
  status: 400,
  json: { type: 'error', error: { type: 'invalid_request_error', message: 'bad request body' } },
};
