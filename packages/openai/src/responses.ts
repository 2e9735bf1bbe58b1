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
  type ModelEndpoint,
  OPENAI_RESPONSE_PARAMETERS,
  openAiResponse,
  openAiResponseInput,
  pick,
  type StreamReader,
} from '@obs/core/kit';

const PARAMETERS = [...OPENAI_RESPONSE_PARAMETERS, 'store', 'stream'];

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
    return { model: body['model'], input: [...instructions, ...openAiResponseInput(body['input'])], modelParameters: parameters, metadata };
  },
  response: openAiResponse,
  stream: () => new ResponsesStreamReader(),
};

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
      this.final = openAiResponse(event['response']);
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
