/**
 * A stand-in model on OpenAI's wire format (`POST /v1/chat/completions`, JSON or server-sent
 * events with `stream: true`) that answers capital-city questions from a fixed table, a few of
 * them wrongly, so evaluators have something to score. It counts every request, can be slowed
 * down (`latencyMs`) and gzips its JSON when asked (`gzip`), to exercise what the recorder stores.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** Capitals the stand-in knows; the wrong ones are on purpose. */
export const CAPITALS: Record<string, string> = {
  France: 'Paris',
  Japan: 'Tokyo',
  Peru: 'Lima',
  Australia: 'Sydney', // wrong: Canberra
  Canada: 'Ottawa',
  Brazil: 'Rio de Janeiro', // wrong: Brasília
  Kenya: 'Nairobi',
  Norway: 'Oslo',
  Egypt: 'Cairo',
  Chile: 'Santiago',
  India: 'New Delhi',
  Turkey: 'Istanbul', // wrong: Ankara
  Germany: 'Berlin',
};

/** The right answers, for expected outputs. */
export const RIGHT: Record<string, string> = { ...CAPITALS, Australia: 'Canberra', Brazil: 'Brasília', Turkey: 'Ankara' };

export interface StandInModel {
  baseURL: string;
  /** Every request, in order. */
  requests: Array<{ path: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }>;
  latencyMs: number;
  gzip: boolean;
  /** Most requests in progress at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

export async function startStandInModel(port = 0): Promise<StandInModel> {
  const model: StandInModel = {
    baseURL: '',
    requests: [],
    latencyMs: 0,
    gzip: false,
    maxInFlight: 0,
    close: async () => {},
  };
  let inFlight = 0;
  const server = createServer(async (req, res) => {
    model.maxInFlight = Math.max(model.maxInFlight, ++inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
    model.requests.push({ path: req.url ?? '', headers: req.headers, body });
    if (model.latencyMs) await new Promise((r) => setTimeout(r, model.latencyMs));
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
    }
    const messages = (body['messages'] as Array<{ role: string; content: string }>) ?? [];
    const question = messages.at(-1)?.content ?? '';
    const country = Object.keys(CAPITALS).find((c) => question.includes(c));
    const answer = country ? CAPITALS[country]! : 'I do not know';
    const usage = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };
    const base = { id: `chatcmpl-${model.requests.length}`, created: 1_700_000_000, model: 'stand-in-1' };
    if (body['stream'] === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'set-cookie': 'session=stand-in' });
      const half = Math.ceil(answer.length / 2);
      const events = [
        {
          ...base,
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta: { role: 'assistant', content: answer.slice(0, half) }, finish_reason: null }],
        },
        {
          ...base,
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta: { content: answer.slice(half) }, finish_reason: 'stop' }],
        },
        { ...base, object: 'chat.completion.chunk', choices: [], usage },
      ];
      for (const e of events) {
        res.write(`data: ${JSON.stringify(e)}\n\n`);
        await new Promise((r) => setTimeout(r, 2));
      }
      res.end('data: [DONE]\n\n');
      return;
    }
    const json = JSON.stringify({
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: answer, refusal: null }, finish_reason: 'stop', logprobs: null }],
      usage,
    });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-request-id': `req_${model.requests.length}`,
      'set-cookie': 'session=stand-in',
    };
    if (model.gzip) {
      // Compressed whatever the client asked: the recorder must still store plain JSON.
      res.writeHead(200, { ...headers, 'content-encoding': 'gzip' });
      res.end(gzipSync(json));
    } else {
      res.writeHead(200, headers);
      res.end(json);
    }
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  model.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  model.close = () => {
    server.closeAllConnections();
    return new Promise((r) => server.close(() => r()));
  };
  return model;
}
