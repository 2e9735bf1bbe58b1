/**
 * A stand-in OpenAI Chat Completions API on a real local HTTP server, for Mastra's model router
 * (`{ id: 'openai/...', url }`): each request takes the next scripted turn (text, or a tool call)
 * and answers it as JSON or, for `stream: true`, as server-sent chunks with a final usage chunk.
 * Every request is kept.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Turn = { text: string } | { call: string; args: Record<string, unknown> };
export const USAGE = { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42, prompt_tokens_details: { cached_tokens: 10 } };

export interface StandInChat {
  baseURL: string;
  requests: Record<string, unknown>[];
  script(...turns: Turn[]): void;
  close(): Promise<void>;
}

export async function startStandInChat(): Promise<StandInChat> {
  const turns: Turn[] = [];
  const requests: Record<string, unknown>[] = [];
  let n = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
    requests.push({ path: req.url, ...body });
    const turn = turns.shift() ?? { text: 'nothing scripted' };
    const id = `chatcmpl_${++n}`;
    const base = { id, object: 'chat.completion.chunk', created: 1, model: 'gpt-stand-in-2026' };
    const delta =
      'text' in turn
        ? { role: 'assistant', content: turn.text }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              { index: 0, id: `call_${n}`, type: 'function', function: { name: turn.call, arguments: JSON.stringify(turn.args) } },
            ],
          };
    const finish = 'text' in turn ? 'stop' : 'tool_calls';
    if (body['stream'] !== true) {
      const { tool_calls, ...message } = delta as Record<string, unknown>;
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: {
                ...message,
                ...(tool_calls ? { tool_calls: (tool_calls as Record<string, unknown>[]).map(({ index, ...c }) => c) } : {}),
              },
              finish_reason: finish,
            },
          ],
          usage: USAGE,
        }),
      );
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    send({ ...base, choices: [{ index: 0, delta, finish_reason: null }] });
    send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
    send({ ...base, choices: [], usage: USAGE });
    res.end('data: [DONE]\n\n');
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
