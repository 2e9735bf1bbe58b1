/**
 * A stand-in OpenAI Chat Completions API on `@obs/local-server/testing`'s stand-in (a real local
 * HTTP server), for Mastra's model router (`{ id: 'openai/...', url }`): each request takes the
 * next scripted turn (text, or a tool call) and answers it as JSON or, for `stream: true`, as
 * server-sent chunks with a final usage chunk. Every request is kept.
 */
import { type StandInCall, startStandInApi } from '@obs/local-server/testing';

export type Turn = { text: string } | { call: string; args: Record<string, unknown> };
export const USAGE = { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42, prompt_tokens_details: { cached_tokens: 10 } };

export interface StandInChat {
  baseURL: string;
  requests: StandInCall[];
  script(...turns: Turn[]): void;
  close(): Promise<void>;
}

export async function startStandInChat(): Promise<StandInChat> {
  const turns: Turn[] = [];
  let n = 0;
  const api = await startStandInApi();
  api.reply('/v1/chat/completions', ({ body }) => {
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
      return {
        json: {
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
        },
      };
    }
    const chunks = [
      { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] },
      { ...base, choices: [], usage: USAGE },
    ];
    return { chunks: [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'], contentType: 'text/event-stream' };
  });
  return {
    baseURL: `${api.url}/v1`,
    requests: api.calls,
    script: (...t) => void turns.splice(0, turns.length, ...t),
    close: () => api.close(),
  };
}
