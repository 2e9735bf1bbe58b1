/**
 * Anthropic's Messages API format as obs reads it, for every client that speaks it
 * (`@obs/anthropic`, Anthropic models on Bedrock's `InvokeModel`): the request's `system` as the
 * system message and its messages in obs's shape (`tool_use` blocks as tool calls, `tool_result`
 * blocks as tool messages, `thinking` as reasoning, base64 images and documents as media), its
 * sampling parameters, the answer from the Message or assembled from the stream's events, and
 * usage in disjoint buckets. Anthropic's `input_tokens` already leaves the cache out; obs's
 * `input` does too, and `total` is every input bucket plus the output.
 */
import { count, usageDetails } from '../genai/usage.js';
import { type LlmMessage, MessageParts, parseJsonValue, type SortedBlock, splitMessages, toolCall } from '../genai/messages.js';
import { type Dict, isDict } from '../util/guards.js';
import { type CallResult, type CallStart, type ModelEndpoint, pick, type StreamReader } from './endpoint.js';
import { mediaDataUri } from './media.js';

/** `temperature`, `top_p` and `top_k` are gone from API version 2026-10-21 (SDK 1.x); older SDKs send them. */
const PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'stream', 'service_tier', 'speed'] as const;

/** `messages.create` of the Messages API (the beta one too, under its own name). */
export const ANTHROPIC_MESSAGES: ModelEndpoint<Dict> = {
  name: 'anthropic.messages.create',
  type: 'generation',
  request: anthropicRequest,
  response: anthropicResponse,
  stream: () => new AnthropicStreamReader(),
};

/** A Messages API request body as the start of a generation. */
export function anthropicRequest(body: Dict): CallStart {
  const parameters: Dict = { ...pick(body, PARAMETERS) };
  const metadata: Dict = {};
  const thinking = body['thinking'];
  if (isDict(thinking)) {
    parameters['thinking'] = thinking['type'];
    if (typeof thinking['budget_tokens'] === 'number') parameters['thinking_budget_tokens'] = thinking['budget_tokens'];
  }
  const choice = body['tool_choice'];
  if (isDict(choice)) {
    parameters['tool_choice'] = choice['type'];
    if (typeof choice['name'] === 'string') parameters['tool_choice_name'] = choice['name'];
    if (choice['disable_parallel_tool_use'] === true) parameters['disable_parallel_tool_use'] = true;
  }
  const config = isDict(body['output_config']) ? body['output_config'] : {};
  if (config['effort'] !== undefined) parameters['effort'] = config['effort'];
  // The beta API's deprecated `output_format` is the same thing.
  const format = config['format'] ?? body['output_format'];
  if (isDict(format)) {
    parameters['response_format'] = format['type'];
    // One JSON value: metadata objects are flattened key by key, and a schema has many.
    if (format['type'] === 'json_schema') metadata['response_format'] = JSON.stringify(format);
  }
  if (Array.isArray(body['tools'])) metadata['tools'] = body['tools'];
  if (Array.isArray(body['betas'])) metadata['betas'] = body['betas'];
  return {
    model: body['model'],
    input: [...systemMessage(body['system']), ...splitMessages(body['messages'], sortBlock, (rest) => contentOf(rest, ''))],
    modelParameters: Object.keys(parameters).length > 0 ? parameters : undefined,
    metadata,
  };
}

/** A Message as the end of a generation. */
export function anthropicResponse(message: unknown): CallResult {
  if (!isDict(message)) return { output: message };
  return {
    model: message['model'],
    output: outputMessage(message['content']),
    usageDetails: anthropicUsage(message['usage']),
    metadata: typeof message['stop_reason'] === 'string' ? { stop_reason: message['stop_reason'] } : undefined,
  };
}

/** Anthropic usage as obs buckets: cache reads and writes beside `input`, thinking inside `output` moved out. */
export function anthropicUsage(usage: unknown): Record<string, number> | undefined {
  if (!isDict(usage)) return undefined;
  const input = count(usage['input_tokens']);
  const read = count(usage['cache_read_input_tokens']);
  const write = count(usage['cache_creation_input_tokens']);
  const details = isDict(usage['output_tokens_details']) ? usage['output_tokens_details'] : {};
  return usageDetails({
    input: input === undefined ? undefined : input + (read ?? 0) + (write ?? 0),
    inputParts: { cache_read: read, cache_write: write },
    output: usage['output_tokens'],
    outputParts: { reasoning: details['thinking_tokens'] },
  });
}

function systemMessage(system: unknown): LlmMessage[] {
  if (typeof system === 'string') return system === '' ? [] : [{ role: 'system', content: system }];
  if (!Array.isArray(system) || system.length === 0) return [];
  return [{ role: 'system', content: contentOf(system, '\n') }];
}

/** One content block of a message: `tool_result` blocks become tool messages before the rest of it. */
function sortBlock(block: unknown): SortedBlock {
  if (!isDict(block)) return 'content';
  switch (block['type']) {
    case 'tool_result': {
      const tool: LlmMessage = { role: 'tool', tool_call_id: block['tool_use_id'], content: contentOf(block['content'], '') };
      if (block['is_error'] === true) tool.is_error = true;
      return { toolResult: tool };
    }
    case 'tool_use':
      return { toolCall: toolCall(block['id'], block['name'], block['input']) };
    case 'thinking':
      return typeof block['thinking'] === 'string' ? { reasoning: block['thinking'] } : 'content';
    case 'redacted_thinking':
      return 'skip';
    default:
      return 'content';
  }
}

/** Content blocks as text when they are all text, else the blocks in order, base64 media as data URIs. */
function contentOf(content: unknown, separator: string): unknown {
  if (!Array.isArray(content)) return content;
  if (content.every((b) => isDict(b) && b['type'] === 'text' && typeof b['text'] === 'string')) {
    return content.map((b) => (b as Dict)['text']).join(separator);
  }
  return content.map(withMedia);
}

function withMedia(block: unknown): unknown {
  if (!isDict(block)) return block;
  if (block['type'] === 'text') return { type: 'text', text: block['text'] };
  const source = block['source'];
  if (!isDict(source) || source['type'] !== 'base64') return block;
  return { ...block, source: { ...source, data: mediaDataUri(source['media_type'], source['data']) } };
}

/** Response content blocks as one assistant message. */
function outputMessage(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const parts = new MessageParts();
  for (const block of content) {
    if (!isDict(block)) continue;
    const type = block['type'];
    if (type === 'text' && typeof block['text'] === 'string') parts.texts.push(block['text']);
    else if (type === 'thinking' && typeof block['thinking'] === 'string') parts.reasoning.push(block['thinking']);
    else if (type === 'tool_use') parts.toolCalls.push(toolCall(block['id'], block['name'], block['input']));
    else if (type !== 'redacted_thinking') parts.other.push(block);
  }
  return parts.message('assistant');
}

/** One content block as its events arrive. */
interface BlockState {
  block: Dict;
  deltas: string[];
}

/** Assembles a Messages stream (`message_start`, `content_block_*`, `message_delta`, `message_stop`). */
export class AnthropicStreamReader implements StreamReader {
  private model: unknown;
  private usage: Dict | undefined;
  private readonly blocks = new Map<number, BlockState>();
  private stopReason: unknown;
  private final = false;
  private stopped = false;

  read(event: unknown): boolean {
    if (!isDict(event)) return false;
    switch (event['type']) {
      case 'message_start':
        if (isDict(event['message'])) {
          this.model = event['message']['model'];
          this.usage = isDict(event['message']['usage']) ? { ...event['message']['usage'] } : undefined;
        }
        return false;
      case 'content_block_start':
        if (typeof event['index'] === 'number' && isDict(event['content_block'])) {
          // A copy: the SDK's stream helper accumulates the deltas into the event's own block.
          this.blocks.set(event['index'], { block: { ...event['content_block'] }, deltas: [] });
        }
        return false;
      case 'content_block_delta':
        return this.delta(this.blocks.get(event['index'] as number), event['delta']);
      case 'message_delta':
        this.final = true;
        if (isDict(event['delta']) && event['delta']['stop_reason'] != null) this.stopReason = event['delta']['stop_reason'];
        // The final counts; a `null` total does not apply and leaves the earlier one.
        if (isDict(event['usage'])) for (const [k, v] of Object.entries(event['usage'])) if (v != null) (this.usage ??= {})[k] = v;
        return false;
      case 'message_stop':
        this.stopped = true;
        return false;
      default:
        return false;
    }
  }

  result(): CallResult & { finished: boolean } {
    const content = [...this.blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => assembled(s));
    let usage = this.usage;
    // Before `message_delta`, `output_tokens` is a placeholder of `message_start`.
    if (usage && !this.final) usage = { ...usage, output_tokens: undefined, output_tokens_details: undefined };
    return {
      model: this.model,
      output: content.length > 0 ? outputMessage(content) : undefined,
      usageDetails: anthropicUsage(usage),
      metadata: typeof this.stopReason === 'string' ? { stop_reason: this.stopReason } : undefined,
      finished: this.stopped,
    };
  }

  private delta(state: BlockState | undefined, delta: unknown): boolean {
    if (!state || !isDict(delta)) return false;
    const text = delta['text'] ?? delta['partial_json'] ?? delta['thinking'];
    if (typeof text !== 'string') return false;
    state.deltas.push(text);
    return true;
  }
}

/** A streamed block with its deltas applied. */
function assembled({ block, deltas }: BlockState): Dict {
  const joined = deltas.join('');
  switch (block['type']) {
    case 'text':
      return { ...block, text: `${typeof block['text'] === 'string' ? block['text'] : ''}${joined}` };
    case 'thinking':
      return { ...block, thinking: `${typeof block['thinking'] === 'string' ? block['thinking'] : ''}${joined}` };
    case 'tool_use':
    case 'server_tool_use':
      return deltas.length > 0 ? { ...block, input: parseJsonValue(joined) } : block;
    default:
      return block;
  }
}
