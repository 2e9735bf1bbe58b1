/**
 * `responses.create` as a generation: `instructions` as the system message, the `input` items
 * as messages (function calls and their outputs as tool calls and tool messages), and the
 * response's output as one assistant message, from the response or from the stream's final
 * `response.completed` event (its text deltas until then). An `incomplete` response is a
 * WARNING, a `failed` one an ERROR.
 */
import {
  type CallResult,
  isDict,
  type LlmToolCall,
  type ModelEndpoint,
  openAiCost,
  openAiUsage,
  pick,
  type StreamReader,
  toolCall,
} from '@obs/core/kit';

const PARAMETERS = [
  'temperature',
  'top_p',
  'max_output_tokens',
  'tool_choice',
  'parallel_tool_calls',
  'truncation',
  'store',
  'service_tier',
  'stream',
] as const;

/** Events that end a response stream, with the response in them. */
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

export const RESPONSES: ModelEndpoint = {
  name: 'openai.responses.create',
  type: 'generation',
  request(body) {
    let parameters = pick(body, PARAMETERS);
    if (isDict(body['reasoning']) && body['reasoning']['effort'] !== undefined) {
      parameters = { ...parameters, reasoning_effort: body['reasoning']['effort'] };
    }
    const text = body['text'];
    const metadata: Record<string, unknown> = {};
    if (isDict(text) && isDict(text['format'])) {
      parameters = { ...parameters, response_format: text['format']['type'] };
      if (text['format']['type'] === 'json_schema') metadata['response_format'] = JSON.stringify(text['format']);
    }
    if (Array.isArray(body['tools'])) metadata['tools'] = body['tools'];
    if (typeof body['previous_response_id'] === 'string') metadata['previous_response_id'] = body['previous_response_id'];
    const instructions = typeof body['instructions'] === 'string' ? [{ role: 'system', content: body['instructions'] }] : [];
    return { model: body['model'], input: [...instructions, ...inputMessages(body['input'])], modelParameters: parameters, metadata };
  },
  response: readResponse,
  stream: () => new ResponsesStreamReader(),
};

function inputMessages(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return input === undefined ? [] : [input];
  return input.map((item) => {
    if (!isDict(item)) return item;
    if (item['type'] === 'function_call') {
      return { role: 'assistant', content: '', tool_calls: [toolCall(item['call_id'], item['name'], item['arguments'])] };
    }
    if (item['type'] === 'function_call_output') return { role: 'tool', tool_call_id: item['call_id'], content: item['output'] };
    if (item['role'] !== undefined) return { role: item['role'], content: textOrParts(item['content']) };
    return item;
  });
}

/** A message's text when it holds only text parts (`input_text`, `output_text`), else its parts. */
function textOrParts(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const texts: string[] = [];
  for (const p of content) {
    if (!isDict(p) || (p['type'] !== 'input_text' && p['type'] !== 'output_text') || typeof p['text'] !== 'string') return content;
    texts.push(p['text']);
  }
  return texts.join('');
}

function readResponse(response: unknown): CallResult {
  if (!isDict(response)) return { output: response };
  const result: CallResult = {
    model: response['model'],
    output: outputMessage(response['output']),
    usageDetails: openAiUsage(response['usage']),
    costDetails: openAiCost(response['usage']),
  };
  if (response['status'] === 'incomplete') {
    const reason = isDict(response['incomplete_details']) ? response['incomplete_details']['reason'] : undefined;
    result.level = 'WARNING';
    result.statusMessage = `incomplete${reason ? `: ${String(reason)}` : ''}`;
  } else if (response['status'] === 'failed') {
    result.level = 'ERROR';
    result.statusMessage = isDict(response['error']) ? String(response['error']['message'] ?? 'failed') : 'failed';
  }
  return result;
}

/** The output items as one assistant message: text, refusal, function calls, reasoning summary. */
function outputMessage(items: unknown): unknown {
  if (!Array.isArray(items)) return items;
  const texts: string[] = [];
  const refusals: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: LlmToolCall[] = [];
  for (const item of items) {
    if (!isDict(item)) continue;
    if (item['type'] === 'message' && Array.isArray(item['content'])) {
      for (const part of item['content']) {
        if (!isDict(part)) continue;
        if (part['type'] === 'output_text' && typeof part['text'] === 'string') texts.push(part['text']);
        else if (part['type'] === 'refusal' && typeof part['refusal'] === 'string') refusals.push(part['refusal']);
      }
    } else if (item['type'] === 'function_call') toolCalls.push(toolCall(item['call_id'], item['name'], item['arguments']));
    else if (item['type'] === 'reasoning' && Array.isArray(item['summary'])) {
      for (const s of item['summary']) if (isDict(s) && typeof s['text'] === 'string') reasoning.push(s['text']);
    }
  }
  const out: Record<string, unknown> = { role: 'assistant', content: texts.join('') };
  if (toolCalls.length > 0) out['tool_calls'] = toolCalls;
  if (refusals.length > 0) out['refusal'] = refusals.join('');
  if (reasoning.length > 0) out['reasoning'] = reasoning.join('');
  return out;
}

/** Text deltas until the final event, whose response is the answer. */
class ResponsesStreamReader implements StreamReader {
  private readonly text: string[] = [];
  private final: CallResult | undefined;
  private model: unknown;
  private error: string | undefined;

  read(event: unknown): boolean {
    if (!isDict(event)) return false;
    const type = event['type'];
    if (typeof type !== 'string') return false;
    if (FINAL_EVENTS.has(type)) {
      this.final = readResponse(event['response']);
      return false;
    }
    if (type === 'response.created' && isDict(event['response'])) this.model = event['response']['model'];
    if (type === 'error') this.error = String(event['message'] ?? 'error');
    if (type === 'response.output_text.delta' && typeof event['delta'] === 'string') {
      this.text.push(event['delta']);
      return true;
    }
    return type.endsWith('.delta');
  }

  result(): CallResult & { finished: boolean } {
    if (this.final) return { ...this.final, finished: true };
    const partial: CallResult & { finished: boolean } = {
      model: this.model,
      output: this.text.length > 0 ? { role: 'assistant', content: this.text.join('') } : undefined,
      finished: this.error !== undefined,
    };
    if (this.error !== undefined) {
      partial.level = 'ERROR';
      partial.statusMessage = this.error;
    }
    return partial;
  }
}
