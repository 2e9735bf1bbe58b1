/**
 * A local OpenAI-compatible HTTP server for the tests: `/v1/chat/completions`, `/v1/responses`
 * and `/v1/embeddings` answer JSON or server-sent events, as each test scripts them; every
 * request is recorded (path, headers, body).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

export interface RecordedCall {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeOpenAI {
  baseURL: string;
  calls: RecordedCall[];
  /** How the next requests are answered, by path (`/chat/completions`, ...). */
  reply(path: string, replies: Reply | Reply[]): void;
  close(): Promise<void>;
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const queues = new Map<string, Reply[]>();
  const calls: RecordedCall[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = (req.url ?? '').replace(/^\/v1/, '');
    const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
    calls.push({ path, headers: req.headers, body });
    const queue = queues.get(path);
    const reply = queue && queue.length > 1 ? queue.shift()! : queue?.[0];
    if (!reply) return send(res, 404, { error: { message: `no reply scripted for ${path}`, type: 'invalid_request_error' } });
    if ('json' in reply) return send(res, reply.status ?? 200, reply.json);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const event of reply.sse) {
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (res.destroyed) return;
      const type = typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
      res.write(`${typeof type === 'string' ? `event: ${type}\n` : ''}data: ${JSON.stringify(event)}\n\n`);
    }
    if (reply.breakOff) {
      // Let the events reach the client first.
      await new Promise((r) => setTimeout(r, 20));
      return res.socket?.destroy();
    }
    if (reply.hang) return;
    if (reply.done !== false) res.write('data: [DONE]\n\n');
    res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    calls,
    reply(path, replies) {
      queues.set(path, Array.isArray(replies) ? [...replies] : [replies]);
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_test' });
  res.end(JSON.stringify(body));
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
