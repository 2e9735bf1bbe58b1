/**
 * A stand-in OpenAI API for the Agents SDK tests, on a real local HTTP server: each test scripts
 * the model's turns (text, function calls), and each request takes the next turn and answers it
 * in the wire format it asked for: `/v1/responses` as JSON or, for `stream: true`, as the
 * Responses API's server-sent events; `/v1/chat/completions` as a Chat Completions JSON body.
 * `/v1/traces/ingest` (OpenAI's trace export) is recorded. Every request is kept.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  requests: { path: string; body: Record<string, unknown> }[];
  /** The turns the next requests answer, in order. */
  script(...turns: Turn[]): void;
  close(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
  const turns: Turn[] = [];
  const requests: StandIn['requests'] = [];
  let n = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = (req.url ?? '').replace(/^\/v1/, '');
    const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
    requests.push({ path, body });
    if (path === '/traces/ingest') return json(res, 204, undefined);
    const turn = turns.shift() ?? { text: 'nothing scripted' };
    const id = ++n;
    if (path === '/chat/completions') return json(res, 200, chatCompletion(turn, id));
    if (path !== '/responses') return json(res, 404, { error: { message: `no ${path}` } });
    const response = { ...responsesResponse(turn, id), instructions: body['instructions'] ?? null };
    if (body['stream'] !== true) return json(res, 200, response);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let seq = 0;
    const event = (e: Record<string, unknown>) =>
      res.write(`event: ${String(e['type'])}\ndata: ${JSON.stringify({ ...e, sequence_number: seq++ })}\n\n`);
    event({ type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } });
    if ('text' in turn) {
      for (const delta of turn.text.match(/.{1,4}/gs) ?? []) {
        event({ type: 'response.output_text.delta', item_id: `msg_${id}`, output_index: 0, content_index: 0, delta, logprobs: [] });
      }
    }
    event({ type: 'response.completed', response });
    res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    script: (...t) => void turns.splice(0, turns.length, ...t),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function json(res: import('node:http').ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body === undefined ? '' : JSON.stringify(body));
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
