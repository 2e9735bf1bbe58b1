/**
 * Bedrock's Converse API as obs reads it (`ConverseCommand`, `ConverseStreamCommand`): the
 * `system` blocks as the system message and the messages in obs's shape (`toolUse` blocks as tool
 * calls, `toolResult` blocks as tool messages, `reasoningContent` as reasoning; image, document
 * and video blocks kept with their bytes, which the export uploads as media), `inferenceConfig` as
 * the parameters, the answer from the output message or assembled from the stream's events, and
 * usage in disjoint buckets (Bedrock's `inputTokens` already leaves the cache out).
 */
import {
  type Dict,
  type CallResult,
  type CallStart,
  isDict,
  type LlmMessage,
  MessageParts,
  type ModelEndpoint,
  parseJsonValue,
  pick,
  type SortedBlock,
  type StreamReader,
  splitMessages,
  toolCall,
  usageDetails,
} from '@obs/core/kit';

export const CONVERSE: ModelEndpoint<Dict> = {
  name: 'bedrock.converse',
  type: 'generation',
  request: converseRequest,
  response(output) {
    if (!isDict(output)) return { output };
    const message = isDict(output['output']) ? output['output']['message'] : undefined;
    return {
      output: isDict(message) ? outputMessage(message['content']) : undefined,
      usageDetails: converseUsage(output['usage']),
      metadata: ending(output['stopReason'], output['metrics']),
    };
  },
  stream: () => new ConverseStreamReader(),
};

export const CONVERSE_STREAM: ModelEndpoint<Dict> = { ...CONVERSE, name: 'bedrock.converse_stream' };

function converseRequest(input: Dict): CallStart {
  const parameters: Dict = {
    ...pick(isDict(input['inferenceConfig']) ? input['inferenceConfig'] : {}, ['maxTokens', 'temperature', 'topP', 'stopSequences']),
  };
  const tools = isDict(input['toolConfig']) ? input['toolConfig'] : {};
  const choice = tools['toolChoice'];
  if (isDict(choice)) {
    const [kind] = Object.keys(choice);
    parameters['tool_choice'] = kind;
    const named = choice['tool'];
    if (isDict(named) && typeof named['name'] === 'string') parameters['tool_choice_name'] = named['name'];
  }
  const metadata: Dict = {};
  if (Array.isArray(tools['tools'])) metadata['tools'] = tools['tools'];
  // One JSON value: metadata objects are flattened key by key.
  if (input['additionalModelRequestFields'] != null)
    metadata['additional_model_request_fields'] = JSON.stringify(input['additionalModelRequestFields']);
  const system = Array.isArray(input['system']) ? input['system'].filter((b) => !(isDict(b) && 'cachePoint' in b)) : [];
  return {
    model: input['modelId'],
    input: [
      ...(system.length > 0 ? [{ role: 'system', content: contentOf(system, '\n') }] : []),
      ...splitMessages(input['messages'], sortBlock, (rest) => contentOf(rest, '')),
    ],
    modelParameters: Object.keys(parameters).length > 0 ? parameters : undefined,
    metadata,
  };
}

/** Converse usage as obs buckets: cache reads and writes beside `inputTokens`. */
function converseUsage(usage: unknown): Record<string, number> | undefined {
  if (!isDict(usage)) return undefined;
  const { inputTokens: input, cacheReadInputTokens: read, cacheWriteInputTokens: write } = usage;
  return usageDetails({
    input: typeof input === 'number' ? input + Number(read ?? 0) + Number(write ?? 0) : undefined,
    inputParts: { cache_read: read, cache_write: write },
    output: usage['outputTokens'],
    total: usage['totalTokens'],
  });
}

function ending(stopReason: unknown, metrics: unknown): Dict | undefined {
  const out: Dict = {};
  if (typeof stopReason === 'string') out['stop_reason'] = stopReason;
  if (isDict(metrics) && typeof metrics['latencyMs'] === 'number') out['latency_ms'] = metrics['latencyMs'];
  return Object.keys(out).length > 0 ? out : undefined;
}

/** One content block of a message: `toolResult` blocks become tool messages before the rest of it. */
function sortBlock(block: unknown): SortedBlock {
  if (!isDict(block)) return 'content';
  const result = block['toolResult'];
  const use = block['toolUse'];
  const thought = reasoningText(block);
  if (isDict(result)) {
    const tool: LlmMessage = { role: 'tool', tool_call_id: result['toolUseId'], content: contentOf(result['content'], '') };
    if (result['status'] === 'error') tool.is_error = true;
    return { toolResult: tool };
  }
  if (isDict(use)) return { toolCall: toolCall(use['toolUseId'], use['name'], use['input']) };
  if (thought !== undefined) return { reasoning: thought };
  return 'cachePoint' in block ? 'skip' : 'content';
}

function reasoningText(block: Dict): string | undefined {
  const r = block['reasoningContent'];
  const text = isDict(r) && isDict(r['reasoningText']) ? r['reasoningText']['text'] : undefined;
  return typeof text === 'string' ? text : undefined;
}

/** Blocks as text when they are all text, a tool result's one JSON block as its value, else the blocks. */
function contentOf(content: unknown, separator: string): unknown {
  if (!Array.isArray(content)) return content;
  if (content.every((b) => isDict(b) && typeof b['text'] === 'string')) return content.map((b) => (b as Dict)['text']).join(separator);
  if (content.length === 1 && isDict(content[0]) && 'json' in content[0]) return content[0]['json'];
  return content;
}

/** Output content blocks as one assistant message. */
function outputMessage(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const parts = new MessageParts();
  for (const block of content) {
    if (!isDict(block)) continue;
    const use = block['toolUse'];
    const thought = reasoningText(block);
    if (typeof block['text'] === 'string') parts.texts.push(block['text']);
    else if (thought !== undefined) parts.reasoning.push(thought);
    else if (isDict(use)) parts.toolCalls.push(toolCall(use['toolUseId'], use['name'], use['input']));
    else parts.other.push(block);
  }
  return parts.message('assistant');
}

/** Assembles a ConverseStream (`messageStart`, `contentBlockStart`/`Delta`/`Stop`, `messageStop`, `metadata`). */
class ConverseStreamReader implements StreamReader {
  /** By `contentBlockIndex`: the tool use it started with, its `text`, `reasoning` or tool `input` so far. */
  private readonly blocks: Dict[] = [];
  private stop: Dict | undefined;
  private metadata: Dict = {};

  read(event: unknown): boolean {
    if (!isDict(event)) return false;
    if (isDict(event['messageStop'])) this.stop = event['messageStop'];
    if (isDict(event['metadata'])) this.metadata = event['metadata'];
    const start = event['contentBlockStart'];
    if (isDict(start) && isDict(start['start'])) this.block(start)['toolUse'] = start['start']['toolUse'];
    const delta = event['contentBlockDelta'];
    const d = isDict(delta) ? delta['delta'] : undefined;
    if (!isDict(d)) return false;
    const reasoning = isDict(d['reasoningContent']) ? d['reasoningContent']['text'] : undefined;
    const input = isDict(d['toolUse']) ? d['toolUse']['input'] : undefined;
    const [kind, text] =
      typeof d['text'] === 'string' ? ['text', d['text']] : reasoning !== undefined ? ['reasoning', reasoning] : ['input', input];
    if (typeof text !== 'string') return false;
    const block = this.block(delta as Dict);
    block[kind] = `${block[kind] ?? ''}${text}`;
    return true;
  }

  result(): CallResult & { finished: boolean } {
    const content = this.blocks
      .filter(Boolean)
      .map((b) =>
        isDict(b['toolUse'])
          ? { toolUse: { ...b['toolUse'], input: b['input'] === undefined ? {} : parseJsonValue(b['input']) } }
          : b['reasoning'] !== undefined
            ? { reasoningContent: { reasoningText: { text: b['reasoning'] } } }
            : { text: b['text'] ?? '' },
      );
    return {
      output: content.length > 0 ? outputMessage(content) : undefined,
      usageDetails: converseUsage(this.metadata['usage']),
      metadata: ending(this.stop?.['stopReason'], this.metadata['metrics']),
      finished: this.stop !== undefined,
    };
  }

  private block(event: Dict): Dict {
    const index = typeof event['contentBlockIndex'] === 'number' ? event['contentBlockIndex'] : 0;
    return (this.blocks[index] ??= {});
  }
}
