/**
 * A scripted stand-in for a provider's HTTP API (OpenAI, Anthropic, Gemini, Bedrock, ...), for
 * tests that run the real SDK against it: each path answers what the test scripts, in turn or
 * from a function of the request, as JSON with a status, or as a streamed body whose chunks the
 * test frames in the provider's own format (server-sent events, Bedrock's event stream), sent
 * with a delay between them, then ended, held open until the client leaves, or cut. Every
 * request is recorded: path (query left off), query, headers, body (parsed when it is JSON), and
 * the HTTP version it came on: the stand-in speaks HTTP/1.1 and cleartext HTTP/2 (prior
 * knowledge, as the AWS SDK's default handler for Bedrock Runtime speaks it) on one port, told
 * apart by the connection's first bytes.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { Duplex } from 'node:stream';

/** One answer of a stand-in API. */
export type StandInReply =
  | { status?: number; json: unknown; headers?: Record<string, string> }
  | {
      status?: number;
      /** The body in chunks, each already in the provider's framing (an SSE event, an event-stream message). */
      chunks: ReadonlyArray<string | Uint8Array>;
      contentType: string;
      headers?: Record<string, string>;
      /** Milliseconds before each chunk. */
      delayMs?: number;
      /** After the chunks, keep the connection open until the client goes away. */
      hang?: boolean;
      /** After the chunks, destroy the socket (a broken stream). */
      breakOff?: boolean;
    };

/** One request the stand-in received. */
export interface StandInCall {
  path: string;
  /** The query string without its `?` (`alt=sse`), `''` when none. */
  query: string;
  /** `1.1` or `2.0`. */
  httpVersion: string;
  headers: IncomingMessage['headers'];
  /** The body, parsed when it is JSON (else its text); `{}` when empty. */
  body: Record<string, unknown>;
  raw: Buffer;
}

export interface StandInApi {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  calls: StandInCall[];
  /** How the next requests to `path` are answered: in turn (the last one repeats), or by a function of the request. */
  reply(path: string, replies: StandInReply | StandInReply[] | ((call: StandInCall) => StandInReply)): void;
  close(): Promise<void>;
}

/** Starts a stand-in API; a path with no script answers 404 with `notFound(path)` (default `{ error }`). */
export async function startStandInApi(
  options: { notFound?: (path: string) => unknown; headers?: Record<string, string> } = {},
): Promise<StandInApi> {
  const scripts = new Map<string, StandInReply[] | ((call: StandInCall) => StandInReply)>();
  const calls: StandInCall[] = [];
  const handle = async (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const [path = '', query = ''] = (req.url ?? '').split('?');
    const call: StandInCall = { path, query, httpVersion: req.httpVersion, headers: req.headers, body: parseBody(raw), raw };
    calls.push(call);
    const script = scripts.get(call.path);
    const reply = typeof script === 'function' ? script(call) : script && script.length > 1 ? script.shift() : script?.[0];
    if (!reply)
      return sendJson(res, 404, options.notFound?.(call.path) ?? { error: `no reply scripted for ${call.path}` }, options.headers);
    if ('json' in reply) return sendJson(res, reply.status ?? 200, reply.json, { ...options.headers, ...reply.headers });
    (res as ServerResponse).writeHead(reply.status ?? 200, {
      'content-type': reply.contentType,
      'cache-control': 'no-cache',
      ...options.headers,
      ...reply.headers,
    });
    for (const chunk of reply.chunks) {
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if ('stream' in res ? res.stream.destroyed : res.destroyed) return;
      (res as ServerResponse).write(chunk);
    }
    if (reply.breakOff) {
      // Let the chunks reach the client first.
      await new Promise((r) => setTimeout(r, 20));
      if ('stream' in res) return res.stream.close(2); // HTTP/2: INTERNAL_ERROR on this stream
      return res.socket?.destroy();
    }
    if (!reply.hang) res.end();
  };
  const http1 = createServer(handle);
  const http2 = createHttp2Server(handle);
  const sockets = new Set<Socket>();
  // One port, both protocols: an HTTP/2 connection opens with its preface (`PRI * HTTP/2.0`).
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', (first) => {
      socket.pause();
      if (first.subarray(0, 4).toString('latin1') === 'PRI ') return http2.emit('connection', replayed(socket, first));
      socket.unshift(first);
      http1.emit('connection', socket);
      socket.resume();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    reply(path, replies) {
      scripts.set(path, typeof replies === 'function' ? replies : Array.isArray(replies) ? [...replies] : [replies]);
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/**
 * The socket as a stream that yields `first` (already read off it) and then the rest: HTTP/2
 * reads a socket's handle itself, past anything put back on the stream, so it gets this instead.
 */
function replayed(socket: Socket, first: Buffer): Duplex {
  const duplex = new Duplex({
    read: () => void socket.resume(),
    write: (chunk, _encoding, done) => void socket.write(chunk, done),
    final: (done) => void socket.end(done),
    destroy: (err, done) => {
      socket.destroy(err ?? undefined);
      done(err);
    },
  });
  duplex.push(first);
  socket.on('data', (chunk) => {
    if (!duplex.push(chunk)) socket.pause();
  });
  socket.on('end', () => duplex.push(null));
  socket.on('close', () => duplex.destroy());
  socket.resume();
  return duplex;
}

function parseBody(raw: Buffer): Record<string, unknown> {
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  } catch {
    return { text: raw.toString('utf8') };
  }
}

function sendJson(res: ServerResponse | Http2ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  (res as ServerResponse).writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
