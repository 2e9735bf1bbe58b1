/**
 * A stand-in Anthropic Messages API on a real local HTTP server, for the Claude Code process the
 * Agent SDK spawns (pointed here with ANTHROPIC_BASE_URL): `POST /v1/messages` answers the
 * streaming wire format (message_start, content blocks with text and input_json deltas,
 * message_delta with the final usage, message_stop) with what `decide` picks from the request.
 * Every request is kept.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply = { text?: string; tool?: string; input?: Record<string, unknown> };
type Body = { model?: string; messages?: { role: string; content: unknown }[]; tools?: { name: string }[] };

/** Usage at the stream's start (what Claude Code copies onto each assistant message) and at its end. */
export const START_USAGE = { input_tokens: 100, output_tokens: 1, cache_read_input_tokens: 50, cache_creation_input_tokens: 20 };
export const FINAL_OUTPUT_TOKENS = 9;

export interface StandInAnthropic {
  url: string;
  requests: Body[];
  close(): Promise<void>;
}

/** The text of the last user message of a request: its text blocks, `RESULT(<id>)` per tool result. */
export function lastUserText(body: Body): string {
  const last = body.messages?.filter((m) => m.role === 'user').at(-1);
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return (last.content as Record<string, unknown>[])
    .map((b) => (b['type'] === 'text' ? String(b['text']) : b['type'] === 'tool_result' ? `RESULT(${String(b['tool_use_id'])})` : ''))
    .join('');
}

export async function startStandInAnthropic(decide: (body: Body) => Reply): Promise<StandInAnthropic> {
  const requests: Body[] = [];
  let n = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body) : {};
    if (!req.url?.startsWith('/v1/messages') || req.url.startsWith('/v1/messages/count_tokens')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}');
    }
    requests.push(body);
    const reply = decide(body);
    const id = `msg_${++n}`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const event = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    event('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: START_USAGE,
      },
    });
    let index = 0;
    if (reply.text !== undefined) {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index, delta: { type: 'text_delta', text: reply.text } });
      event('content_block_stop', { index: index++ });
    }
    if (reply.tool) {
      event('content_block_start', { index, content_block: { type: 'tool_use', id: `toolu_${n}`, name: reply.tool, input: {} } });
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.input ?? {}) } });
      event('content_block_stop', { index: index++ });
    }
    event('message_delta', {
      delta: { stop_reason: reply.tool ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: FINAL_OUTPUT_TOKENS },
    });
    event('message_stop', {});
    res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
