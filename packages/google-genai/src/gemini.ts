/**
 * The Gemini API's format as the Google Gen AI SDK (`@google/genai`) hands it to
 * `generateContent`, `generateContentStream` and `embedContent`, read into obs's shape:
 * `config.systemInstruction` as the system message, `contents` (a string, parts or contents, as
 * the SDK takes them) as `{ role, content }` messages with `model` turns as `assistant`,
 * `functionCall` parts as tool calls and `functionResponse` parts as tool messages, thoughts as
 * reasoning, `inlineData` as data URIs the export uploads as media; the answer from the first
 * candidate, or assembled from the stream's chunks; usage in disjoint buckets (Gemini's
 * `promptTokenCount` includes the cached tokens, `candidatesTokenCount` leaves the thoughts out).
 */
import {
  type Dict,
  type CallResult,
  type CallStart,
  isDict,
  type LlmMessage,
  MessageParts,
  type ModelEndpoint,
  mediaDataUri,
  pick,
  type SortedBlock,
  type StreamReader,
  splitMessage,
  toolCall,
  usageDetails,
} from '@obs/core/kit';

const PARAMETERS = [
  'temperature',
  'topP',
  'topK',
  'candidateCount',
  'maxOutputTokens',
  'stopSequences',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
  'responseMimeType',
  'responseLogprobs',
  'logprobs',
  'serviceTier',
  'cachedContent',
] as const;

/** Finish reasons that say the answer was withheld or cut by a filter. */
const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

/** `models.generateContent` / `generateContentStream` (and chat turns, under their own name). */
export const GENERATE: ModelEndpoint<Dict> = {
  name: 'google-genai.generate_content',
  type: 'generation',
  request: generateRequest,
  response: generateResponse,
  stream: () => new GeminiStreamReader(),
};

/** `models.embedContent`: the texts and usage; the vectors are not recorded. */
export const EMBED: ModelEndpoint<Dict> = {
  name: 'google-genai.embed_content',
  type: 'embedding',
  request(params) {
    const config = isDict(params['config']) ? params['config'] : {};
    const contents = params['contents'];
    return {
      model: params['model'],
      input: Array.isArray(contents) ? contents.map(embedText) : embedText(contents),
      modelParameters: pick(config, ['outputDimensionality', 'taskType', 'title', 'autoTruncate']),
    };
  },
  response(value) {
    if (!isDict(value)) return {};
    let tokens = isDict(value['usageMetadata']) ? value['usageMetadata']['promptTokenCount'] : undefined;
    // Vertex AI counts per embedding.
    if (tokens === undefined && Array.isArray(value['embeddings'])) {
      const counts = value['embeddings'].map((e) => (isDict(e) && isDict(e['statistics']) ? e['statistics']['tokenCount'] : undefined));
      if (counts.some((c) => typeof c === 'number')) tokens = counts.reduce<number>((a, c) => a + (typeof c === 'number' ? c : 0), 0);
    }
    return { usageDetails: usageDetails({ input: tokens, total: tokens }) };
  },
};

/** The request of a generation: `{ model, contents, config }`, plus `stream` when it streams. */
export function generateRequest(params: Dict): CallStart {
  const config = isDict(params['config']) ? params['config'] : {};
  const parameters: Dict = { ...pick(config, PARAMETERS) };
  if (params['stream'] === true) parameters['stream'] = true;
  const thinking = config['thinkingConfig'];
  if (isDict(thinking)) {
    if (typeof thinking['thinkingBudget'] === 'number') parameters['thinkingBudget'] = thinking['thinkingBudget'];
    if (thinking['thinkingLevel'] !== undefined) parameters['thinkingLevel'] = thinking['thinkingLevel'];
  }
  const calling = isDict(config['toolConfig']) ? config['toolConfig']['functionCallingConfig'] : undefined;
  if (isDict(calling) && calling['mode'] !== undefined) parameters['tool_choice'] = calling['mode'];
  const metadata: Dict = {};
  // One JSON value: metadata objects are flattened key by key, and a schema has many.
  const schema = config['responseJsonSchema'] ?? config['responseSchema'];
  if (schema !== undefined) metadata['response_schema'] = JSON.stringify(schema);
  if (Array.isArray(config['tools'])) metadata['tools'] = config['tools'].filter((t) => isDict(t));
  return {
    model: params['model'],
    input: [...systemMessage(config['systemInstruction']), ...inputMessages(params['contents'])],
    modelParameters: Object.keys(parameters).length > 0 ? parameters : undefined,
    metadata,
  };
}

/** A `GenerateContentResponse` as the end of a generation. */
export function generateResponse(response: unknown): CallResult {
  if (!isDict(response)) return { output: response };
  const candidate = Array.isArray(response['candidates']) ? response['candidates'][0] : undefined;
  const content = isDict(candidate) && isDict(candidate['content']) ? candidate['content'] : undefined;
  return {
    model: response['modelVersion'],
    output: content ? outputMessage(content['parts']) : undefined,
    usageDetails: geminiUsage(response['usageMetadata']),
    ...outcome(isDict(candidate) ? candidate['finishReason'] : undefined, response['promptFeedback']),
  };
}

/** Gemini usage as obs buckets. */
export function geminiUsage(usage: unknown): Record<string, number> | undefined {
  if (!isDict(usage)) return undefined;
  const candidates = usage['candidatesTokenCount'];
  const thoughts = usage['thoughtsTokenCount'];
  const output =
    typeof candidates === 'number' || typeof thoughts === 'number' ? Number(candidates ?? 0) + Number(thoughts ?? 0) : undefined;
  return usageDetails({
    input: usage['promptTokenCount'],
    inputParts: { cache_read: usage['cachedContentTokenCount'] },
    output,
    outputParts: { reasoning: thoughts },
    total: usage['totalTokenCount'],
  });
}

/** The finish reason as metadata; a blocked prompt or a filtered answer as WARNING. */
function outcome(finishReason: unknown, feedback: unknown): Pick<CallResult, 'metadata' | 'level' | 'statusMessage'> {
  const out: Pick<CallResult, 'metadata' | 'level' | 'statusMessage'> = {};
  if (typeof finishReason === 'string') out.metadata = { finish_reason: finishReason };
  const blocked = isDict(feedback) ? feedback['blockReason'] : undefined;
  if (typeof blocked === 'string') return { ...out, level: 'WARNING', statusMessage: `the prompt was blocked: ${blocked}` };
  if (typeof finishReason === 'string' && FILTERED.has(finishReason)) {
    return { ...out, level: 'WARNING', statusMessage: `the answer was stopped: ${finishReason}` };
  }
  return out;
}

function systemMessage(instruction: unknown): LlmMessage[] {
  if (instruction === undefined || instruction === null || instruction === '') return [];
  const parts =
    typeof instruction === 'string'
      ? [instruction]
      : isDict(instruction) && Array.isArray(instruction['parts'])
        ? instruction['parts']
        : [instruction].flat();
  return [{ role: 'system', content: contentOf(parts, '\n') }];
}

/**
 * `contents` as the SDK takes it (a string, a part, contents, or a list of strings and parts)
 * as messages: strings and parts outside a content are the user's, consecutive ones one message.
 */
function inputMessages(contents: unknown): unknown[] {
  const out: unknown[] = [];
  let loose: unknown[] = [];
  const flush = () => {
    if (loose.length > 0) out.push(...message({ role: 'user', parts: loose }));
    loose = [];
  };
  for (const item of Array.isArray(contents) ? contents : [contents]) {
    if (isDict(item) && (Array.isArray(item['parts']) || typeof item['role'] === 'string')) {
      flush();
      out.push(...message(item));
    } else if (item !== undefined) loose.push(item);
  }
  flush();
  return out;
}

/** One content as messages: its `functionResponse` parts as tool messages, before the rest of it. */
function message(content: Dict): unknown[] {
  const role = content['role'] === 'model' ? 'assistant' : (content['role'] ?? 'user');
  return splitMessage(role, Array.isArray(content['parts']) ? content['parts'] : [], sortPart, (rest) => contentOf(rest, ''));
}

function sortPart(part: unknown): SortedBlock {
  if (!isDict(part)) return 'content';
  const call = part['functionCall'];
  const result = part['functionResponse'];
  if (isDict(call)) return { toolCall: toolCall(call['id'], call['name'], call['args']) };
  if (isDict(result)) {
    const media = Array.isArray(result['parts']) ? result['parts'].map(withMedia) : [];
    const content = media.length > 0 ? [result['response'], ...media] : result['response'];
    return { toolResult: { role: 'tool', tool_call_id: result['id'], name: result['name'], content } };
  }
  return part['thought'] === true && typeof part['text'] === 'string' ? { reasoning: part['text'] } : 'content';
}

/** Parts as text when they are all text, else the parts in order, inline data as data URIs. */
function contentOf(parts: unknown[], separator: string): unknown {
  const text = (p: unknown) => (typeof p === 'string' ? p : isDict(p) && typeof p['text'] === 'string' ? p['text'] : undefined);
  if (parts.every((p) => text(p) !== undefined)) return parts.map(text).join(separator);
  return parts.map((p) => (typeof p === 'string' ? { text: p } : withMedia(p)));
}

function withMedia(part: unknown): unknown {
  if (!isDict(part) || !isDict(part['inlineData'])) return part;
  const blob = part['inlineData'];
  return { ...part, inlineData: { ...blob, data: mediaDataUri(blob['mimeType'], blob['data']) } };
}

/** A candidate's parts as one assistant message. */
function outputMessage(parts: unknown): unknown {
  if (!Array.isArray(parts)) return undefined;
  const out = new MessageParts();
  for (const part of parts) {
    if (!isDict(part)) continue;
    if (typeof part['text'] === 'string') (part['thought'] === true ? out.reasoning : out.texts).push(part['text']);
    else if (isDict(part['functionCall'])) {
      const call = part['functionCall'];
      out.toolCalls.push(toolCall(call['id'], call['name'], call['args']));
    } else out.other.push(withMedia(part));
  }
  return out.message('assistant');
}

function embedText(content: unknown): unknown {
  if (typeof content === 'string') return content;
  const parts = isDict(content) && Array.isArray(content['parts']) ? content['parts'] : [content];
  return contentOf(parts, '');
}

/** Assembles a `generateContentStream`: each chunk a `GenerateContentResponse` with the next parts. */
export class GeminiStreamReader implements StreamReader {
  private readonly parts: unknown[] = [];
  private last: Dict = {};
  private finishReason: unknown;
  private feedback: unknown;

  read(chunk: unknown): boolean {
    if (!isDict(chunk)) return false;
    if (chunk['modelVersion'] !== undefined) this.last['modelVersion'] = chunk['modelVersion'];
    if (chunk['usageMetadata'] !== undefined) this.last['usageMetadata'] = chunk['usageMetadata'];
    if (chunk['promptFeedback'] !== undefined) this.feedback = chunk['promptFeedback'];
    const candidate = Array.isArray(chunk['candidates']) ? chunk['candidates'][0] : undefined;
    if (!isDict(candidate)) return false;
    if (candidate['finishReason'] != null) this.finishReason = candidate['finishReason'];
    const parts = isDict(candidate['content']) ? candidate['content']['parts'] : undefined;
    if (!Array.isArray(parts) || parts.length === 0) return false;
    this.parts.push(...parts);
    return true;
  }

  result(): CallResult & { finished: boolean } {
    return {
      model: this.last['modelVersion'],
      output: this.parts.length > 0 ? outputMessage(this.parts) : undefined,
      usageDetails: geminiUsage(this.last['usageMetadata']),
      ...outcome(this.finishReason, this.feedback),
      finished: this.finishReason !== undefined || this.feedback !== undefined,
    };
  }
}
