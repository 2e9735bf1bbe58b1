/**
 * A local stand-in for Bedrock Runtime, speaking its wire format over HTTP/2 (the current SDK's
 * default) and HTTP/1.1 (3.588's): `POST /model/{modelId}/converse` and `/invoke` answer JSON;
 * `/converse-stream` and `/invoke-with-response-stream` answer `application/vnd.amazon.eventstream`,
 * binary messages with their headers (`:message-type`, `:event-type`, `:content-type`) and CRCs,
 * encoded by Smithy's own codec, including an exception message mid-stream; errors as AWS's JSON
 * with `x-amzn-errortype`. Every request is recorded (path, HTTP version, headers, body).
 */
import { EventStreamCodec, type MessageHeaders } from '@smithy/core/event-streams';
import { type StandInCall, type StandInReply, startStandInApi } from '@obs/local-server/testing';

type Dict = Record<string, unknown>;

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/** One answer: JSON (with a status and an AWS error type), or event-stream events (`{ eventType: payload }`). */
export type Reply =
  | { status?: number; json: unknown; errorType?: string }
  | { events: Dict[]; exception?: { type: string; message: string }; delayMs?: number; hang?: boolean; breakOff?: boolean };

export interface FakeBedrock {
  url: string;
  calls: StandInCall[];
  /** How the next requests of `operation` (`converse`, `converse-stream`, `invoke`, ...) for `modelId`, or to a path (`/guardrail/...`), are answered. */
  reply(operation: string, replies: Reply | Reply[] | ((call: StandInCall) => Reply), modelId?: string): void;
  close(): Promise<void>;
}

export const MODEL = 'anthropic.claude-test-v1';

export async function startFakeBedrock(): Promise<FakeBedrock> {
  const api = await startStandInApi({ notFound: (path) => ({ message: `no reply scripted for ${path}` }) });
  return {
    url: api.url,
    calls: api.calls,
    reply(operation, replies, modelId = MODEL) {
      const path = operation.startsWith('/') ? operation : `/model/${encodeURIComponent(modelId)}/${operation}`;
      if (typeof replies === 'function') api.reply(path, (call) => framed(replies(call)));
      else api.reply(path, (Array.isArray(replies) ? replies : [replies]).map(framed));
    },
    close: () => api.close(),
  };
}

const header = (value: string) => ({ type: 'string' as const, value });

/** One event-stream message. */
function message(headers: MessageHeaders, body: unknown): Uint8Array {
  return codec.encode({ headers, body: new TextEncoder().encode(JSON.stringify(body)) });
}

function framed(reply: Reply): StandInReply {
  if ('json' in reply) {
    const headers: Record<string, string> = { 'x-amzn-requestid': 'req-test' };
    if (reply.errorType) headers['x-amzn-errortype'] = `${reply.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`;
    return { status: reply.status, json: reply.json, headers };
  }
  const { events, exception, ...timing } = reply;
  const chunks = events.map((e) => {
    const [type, payload] = Object.entries(e)[0]!;
    return message({ ':message-type': header('event'), ':event-type': header(type), ':content-type': header('application/json') }, payload);
  });
  if (exception) {
    chunks.push(
      message(
        { ':message-type': header('exception'), ':exception-type': header(exception.type), ':content-type': header('application/json') },
        { message: exception.message },
      ),
    );
  }
  return { ...timing, contentType: 'application/vnd.amazon.eventstream', headers: { 'x-amzn-requestid': 'req-stream' }, chunks };
}

export const USAGE = { inputTokens: 12, outputTokens: 20, totalTokens: 70, cacheReadInputTokens: 30, cacheWriteInputTokens: 8 };
export const USAGE_DETAILS = { input: 12, input_cache_read: 30, input_cache_write: 8, output: 20, total: 70 };

/** A Converse response with these content blocks. */
export function converseOutput(content: Dict[], usage: Dict = USAGE, stopReason = 'end_turn'): Dict {
  return { output: { message: { role: 'assistant', content } }, stopReason, usage, metrics: { latencyMs: 321 } };
}

/** The ConverseStream events for `out`: text and reasoning in two deltas each, tool input in two JSON halves. */
export function converseEvents(out: Dict): Dict[] {
  const content = ((out['output'] as Dict)['message'] as Dict)['content'] as Dict[];
  const events: Dict[] = [{ messageStart: { role: 'assistant' } }];
  const halves = (s: string) => [s.slice(0, Math.ceil(s.length / 2)), s.slice(Math.ceil(s.length / 2))];
  content.forEach((block, contentBlockIndex) => {
    if (typeof block['text'] === 'string') {
      for (const text of halves(block['text'])) events.push({ contentBlockDelta: { contentBlockIndex, delta: { text } } });
    } else if (block['reasoningContent']) {
      const text = ((block['reasoningContent'] as Dict)['reasoningText'] as Dict)['text'] as string;
      for (const t of halves(text)) events.push({ contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { text: t } } } });
      events.push({ contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { signature: 'sig' } } } });
    } else if (block['toolUse']) {
      const { toolUseId, name, input } = block['toolUse'] as Dict;
      events.push({ contentBlockStart: { contentBlockIndex, start: { toolUse: { toolUseId, name } } } });
      for (const part of halves(JSON.stringify(input)))
        events.push({ contentBlockDelta: { contentBlockIndex, delta: { toolUse: { input: part } } } });
    }
    events.push({ contentBlockStop: { contentBlockIndex } });
  });
  events.push({ messageStop: { stopReason: out['stopReason'] } });
  events.push({ metadata: { usage: out['usage'], metrics: out['metrics'] } });
  return events;
}

/** An Anthropic Message as Bedrock's InvokeModel returns it. */
export function anthropicMessage(text: string): Dict {
  return {
    id: 'msg_bdrk_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test-2026',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 12, cache_read_input_tokens: 30, cache_creation_input_tokens: 8, output_tokens: 20 },
  };
}

/** InvokeModelWithResponseStream's chunks for an Anthropic message: each event's JSON as base64 bytes. */
export function anthropicChunks(text: string): Dict[] {
  const msg = anthropicMessage(text);
  const usage = msg['usage'] as Dict;
  const half = Math.ceil(text.length / 2);
  const events: Dict[] = [
    { type: 'message_start', message: { ...msg, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: text.slice(0, half) } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: text.slice(half) } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } },
    { type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 12, outputTokenCount: 20 } },
  ];
  return events.map((e) => ({ chunk: { bytes: Buffer.from(JSON.stringify(e)).toString('base64') } }));
}
