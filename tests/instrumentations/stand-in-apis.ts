/**
 * Local stand-ins for the provider APIs the OpenInference suite calls through the real SDKs:
 * OpenAI (`/v1/chat/completions`, `/v1/embeddings`) and Anthropic (`/v1/messages`) over HTTP/1.1,
 * Bedrock Runtime (`/model/{id}/converse`, `/model/{id}/invoke`) over cleartext HTTP/2 as the AWS
 * SDK's default handler speaks it. Each answers what the test scripts for its path: a JSON body
 * (with a status) or server-sent events (OpenAI's `data:` lines and `[DONE]`, Anthropic's named
 * events). Every request is recorded.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';

/** One answer: a JSON body, or SSE events (`[DONE]` at the end unless `done: false`). */
export type Reply = { status?: number; json: unknown } | { sse: unknown[]; done?: boolean };

export interface StandIn {
  url: string;
  /** The requests received: path (without `/v1`) and parsed body. */
  calls: { path: string; body: Record<string, unknown> }[];
  /** How requests whose path ends with `suffix` are answered (the last reply repeats). */
  reply(suffix: string, ...replies: Reply[]): void;
  close(): Promise<void>;
}

/** A stand-in on HTTP/1.1 (`http2: false`) or cleartext HTTP/2. */
export async function startStandIn(http2 = false): Promise<StandIn> {
  const scripts: [string, Reply[]][] = [];
  const calls: StandIn['calls'] = [];
  const handle = async (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = decodeURIComponent((req.url ?? '').replace(/^\/v1/, ''));
    const text = Buffer.concat(chunks).toString('utf8');
    calls.push({ path, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
    const queue = scripts.find(([suffix]) => path.endsWith(suffix))?.[1];
    const reply = queue && queue.length > 1 ? queue.shift()! : queue?.[0];
    if (!reply) return send(res, 404, { message: `no reply scripted for ${path}` });
    if ('json' in reply) return send(res, reply.status ?? 200, reply.json);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const event of reply.sse) {
      const type = (event as { type?: unknown }).type;
      res.write(`${typeof type === 'string' && reply.done === false ? `event: ${type}\n` : ''}data: ${JSON.stringify(event)}\n\n`);
    }
    if (reply.done !== false) res.write('data: [DONE]\n\n');
    res.end();
  };
  const server = http2 ? createHttp2Server(handle) : createServer(handle);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    reply(suffix, ...replies) {
      scripts.unshift([suffix, replies]);
    },
    close: () => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

function send(res: ServerResponse | Http2ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
