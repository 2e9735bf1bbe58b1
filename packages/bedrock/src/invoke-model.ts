/**
 * Bedrock's `InvokeModel` and `InvokeModelWithResponseStream`, whose bodies are the model
 * provider's own JSON as bytes. An Anthropic body (`anthropic_version`, the Messages API) is read
 * by core's `ANTHROPIC_MESSAGES` readers, its stream's chunks (each an Anthropic event as bytes)
 * by its stream reader, so it records what `@obs/anthropic` records. An embedding model's call
 * (`amazon.titan-embed-*`, `cohere.embed-*`) is an embedding with its text; any other model's a
 * generation with the request and response JSON as they are.
 */
import {
  type Dict,
  ANTHROPIC_MESSAGES,
  AnthropicStreamReader,
  isDict,
  type ModelEndpoint,
  type StreamReader,
  usageDetails,
} from '@obs/core/kit';

const decoder = new TextDecoder();

/** A body (bytes or text) as its JSON value; `undefined` when it is not JSON. */
export function bodyJson(body: unknown): unknown {
  try {
    if (typeof body === 'string') return JSON.parse(body);
    if (body instanceof Uint8Array) return JSON.parse(decoder.decode(body));
  } catch {}
  return undefined;
}

const isAnthropic = (json: unknown): json is Dict =>
  isDict(json) && (typeof json['anthropic_version'] === 'string' || json['type'] === 'message');

export const INVOKE_MODEL: ModelEndpoint<Dict> = {
  name: 'bedrock.invoke_model',
  type: 'generation',
  request(input) {
    const body = bodyJson(input['body']);
    if (isAnthropic(body)) return ANTHROPIC_MESSAGES.request({ ...body, model: input['modelId'] });
    return { model: input['modelId'], input: body };
  },
  response(output) {
    const body = isDict(output) ? bodyJson(output['body']) : undefined;
    if (isAnthropic(body)) return ANTHROPIC_MESSAGES.response(body);
    return { output: body };
  },
  stream: () => new ChunkReader(),
};

export const INVOKE_MODEL_STREAM: ModelEndpoint<Dict> = { ...INVOKE_MODEL, name: 'bedrock.invoke_model_with_response_stream' };

/** An embedding model's `InvokeModel`: its text(s) and token count; the vectors are not recorded. */
export const INVOKE_EMBEDDING: ModelEndpoint<Dict> = {
  name: 'bedrock.invoke_model',
  type: 'embedding',
  request(input) {
    const body = bodyJson(input['body']);
    const text = isDict(body) ? (body['inputText'] ?? body['texts'] ?? body['input']) : undefined;
    return { model: input['modelId'], input: text ?? body };
  },
  response(output) {
    const body = isDict(output) ? bodyJson(output['body']) : undefined;
    const tokens = isDict(body) ? body['inputTextTokenCount'] : undefined;
    return { usageDetails: usageDetails({ input: tokens, total: tokens }) };
  },
};

/**
 * The chunks of `InvokeModelWithResponseStream` (`{ chunk: { bytes } }`): an Anthropic stream's
 * events go to Anthropic's reader; another model's stream passes unread and ends the call when it ends.
 */
class ChunkReader implements StreamReader {
  private readonly anthropic = new AnthropicStreamReader();
  private other = false;

  read(event: unknown): boolean {
    const chunk = isDict(event) ? event['chunk'] : undefined;
    const json = isDict(chunk) ? bodyJson(chunk['bytes']) : undefined;
    if (isDict(json) && typeof json['type'] === 'string') return this.anthropic.read(json);
    this.other = true;
    return json !== undefined;
  }

  result() {
    return this.other ? { finished: true } : this.anthropic.result();
  }
}
