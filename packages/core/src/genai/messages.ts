/**
 * Chat messages in the one shape obs shows for every LLM library: `{ role, content,
 * tool_calls: [{ id, name, args }] }`, tool results as `{ role: 'tool', tool_call_id, content }`.
 * `content` is the text when a message holds only text, else its parts; tool-call arguments are
 * parsed when they arrive as JSON text, so a call reads the same whichever SDK made it.
 */

import { type Dict, isDict } from '../util/guards.js';

/** One tool call of a message. */
export interface LlmToolCall {
  id?: unknown;
  name?: unknown;
  args: unknown;
}

/** One message, as obs shows it. */
export interface LlmMessage {
  role: unknown;
  content: unknown;
  tool_calls?: LlmToolCall[];
  tool_call_id?: unknown;
  /** A tool message's tool, when the provider names it. */
  name?: unknown;
  /** A tool message whose tool failed. */
  is_error?: boolean;
  /** The model's reasoning text, when it reported one. */
  reasoning?: string;
}

/** A tool call with its arguments parsed when they are JSON text. */
export function toolCall(id: unknown, name: unknown, args: unknown): LlmToolCall {
  return { id, name, args: parseJsonValue(args) };
}

/** A JSON text's value (a JSON attribute's); anything else, and text that is not JSON, as it is. */
export function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The text's JSON value when `value` is JSON text of an object or array, else `value` itself. */
export function parseJsonValue(value: unknown): unknown {
  const first = typeof value === 'string' ? value.trimStart()[0] : undefined;
  return first === '{' || first === '[' ? parseJson(value) : value;
}

/**
 * What one content block of a provider's message is to {@link splitMessage}: a tool call, a tool
 * result (the tool message, ready), reasoning, content of the message, or nothing to show (a cache
 * marker).
 */
export type SortedBlock = { toolCall: LlmToolCall } | { toolResult: LlmMessage } | { reasoning: string } | 'content' | 'skip';

/**
 * A provider's message (its role and content blocks) as obs messages: its tool results as tool
 * messages first (providers send them inside the user's turn), then one message of `role` with
 * its other blocks as `content` (`contentOf` reads them, in order), `tool_calls` and `reasoning`,
 * when it has any of them or no blocks at all.
 */
export function splitMessage(
  role: unknown,
  blocks: readonly unknown[],
  sort: (block: unknown) => SortedBlock,
  contentOf: (blocks: unknown[]) => unknown,
): LlmMessage[] {
  const out: LlmMessage[] = [];
  const parts = new MessageParts();
  for (const block of blocks) {
    const kind = sort(block);
    if (kind === 'content') parts.other.push(block);
    else if (kind === 'skip') continue;
    else if ('toolCall' in kind) parts.toolCalls.push(kind.toolCall);
    else if ('toolResult' in kind) out.push(kind.toolResult);
    else parts.reasoning.push(kind.reasoning);
  }
  // Tool calls and reasoning as every message has them; the content as `contentOf` reads the blocks.
  if (parts.other.length + parts.toolCalls.length + parts.reasoning.length > 0 || blocks.length === 0)
    out.push({ ...parts.message(role), content: contentOf(parts.other) });
  return out;
}

/**
 * A provider's messages (`{ role, content: blocks }`, as Anthropic's Messages and Bedrock's
 * Converse send them) in obs's shape, each by {@link splitMessage}; anything else as it is.
 */
export function splitMessages(
  messages: unknown,
  sort: (block: unknown) => SortedBlock,
  contentOf: (blocks: unknown[]) => unknown,
): unknown[] {
  if (!Array.isArray(messages)) return messages === undefined ? [] : [messages];
  return messages.flatMap((m) => (isDict(m) && Array.isArray(m['content']) ? splitMessage(m['role'], m['content'], sort, contentOf) : [m]));
}

/** Parts of one message, sorted by what obs does with them. */
export class MessageParts {
  readonly texts: string[] = [];
  readonly reasoning: string[] = [];
  readonly toolCalls: LlmToolCall[] = [];
  /** Parts that are neither text, reasoning nor tool calls (images, files, ...), kept as they are. */
  readonly other: unknown[] = [];

  /** The message: text content unless other parts make it a list of parts. */
  message(role: unknown): LlmMessage {
    const out: LlmMessage = {
      role,
      content: this.other.length > 0 ? [...this.texts.map((text) => ({ type: 'text', text })), ...this.other] : this.texts.join(''),
    };
    if (this.toolCalls.length > 0) out.tool_calls = this.toolCalls;
    if (this.reasoning.length > 0) out.reasoning = this.reasoning.join('');
    return out;
  }
}

/** System instructions (a string, or semconv parts `[{ type: 'text', content }]`) as system messages. */
export function systemMessages(instructions: unknown): LlmMessage[] {
  if (typeof instructions === 'string') return instructions === '' ? [] : [{ role: 'system', content: instructions }];
  if (!Array.isArray(instructions)) return [];
  return instructions.map((p) => ({ role: 'system', content: isDict(p) && typeof p['content'] === 'string' ? p['content'] : p }));
}

/**
 * OTel GenAI semantic-convention messages (`{ role, parts: [...] }`) as obs messages. A tool
 * message becomes one message per `tool_call_response`, and so does each `tool_call_response` of
 * a user message (Anthropic sends tool results as user content), before the user's other parts;
 * in an assistant message a `tool_call_response` (the AI SDK's agent output lists them) is the
 * tool span's output and is left out, so it never stands in for the text.
 */
export function semconvMessages(messages: unknown): unknown[] {
  if (!Array.isArray(messages)) return [messages];
  return messages.flatMap((m) => semconvMessage(m));
}

function semconvMessage(m: unknown): unknown[] {
  if (!isDict(m) || !Array.isArray(m['parts'])) return [m];
  const parts = m['parts'] as unknown[];
  if (m['role'] === 'tool') {
    return parts.map((p) =>
      isDict(p) && p['type'] === 'tool_call_response'
        ? toolResultMessage(p)
        : { role: 'tool', content: isDict(p) && typeof p['content'] === 'string' ? p['content'] : p },
    );
  }
  const sorted = new MessageParts();
  const toolResults: LlmMessage[] = [];
  for (const part of parts) {
    if (!isDict(part)) continue;
    const type = part['type'];
    if (type === 'tool_call_response' && m['role'] === 'user') toolResults.push(toolResultMessage(part));
    else if (type === 'text' && typeof part['content'] === 'string') sorted.texts.push(part['content']);
    else if (type === 'reasoning' && typeof part['content'] === 'string') sorted.reasoning.push(part['content']);
    else if (type === 'tool_call') sorted.toolCalls.push(toolCall(part['id'], part['name'], part['arguments']));
    else if (type !== 'tool_call_response') sorted.other.push(part);
  }
  const rest = sorted.texts.length + sorted.other.length + sorted.toolCalls.length + sorted.reasoning.length;
  return rest === 0 && toolResults.length > 0 ? toolResults : [...toolResults, sorted.message(m['role'])];
}

/** A `tool_call_response` part as a tool message (its result under `response`, or `result`). */
function toolResultMessage(part: Dict): LlmMessage {
  return { role: 'tool', tool_call_id: part['id'], content: parseJsonValue(part['response'] ?? part['result']) };
}

/**
 * The AI SDK's prompt messages (`ai.prompt.messages`: `content` a string or parts `text`,
 * `reasoning`, `tool-call`, `tool-result`, `image`, `file`) as obs messages.
 */
export function aiSdkMessages(messages: unknown): unknown[] {
  if (!Array.isArray(messages)) return [messages];
  return messages.flatMap((m) => aiSdkMessage(m));
}

function aiSdkMessage(m: unknown): unknown[] {
  if (!isDict(m)) return [m];
  const content = m['content'];
  if (!Array.isArray(content)) return [{ role: m['role'], content }];
  if (m['role'] === 'tool') {
    return content.map((p) =>
      isDict(p) && p['type'] === 'tool-result'
        ? { role: 'tool', tool_call_id: p['toolCallId'], content: toolResultValue(p) }
        : { role: 'tool', content: p },
    );
  }
  const sorted = new MessageParts();
  for (const part of content) {
    if (!isDict(part)) continue;
    const type = part['type'];
    if (type === 'text' && typeof part['text'] === 'string') sorted.texts.push(part['text']);
    else if (type === 'reasoning' && typeof part['text'] === 'string') sorted.reasoning.push(part['text']);
    else if (type === 'tool-call') sorted.toolCalls.push(toolCall(part['toolCallId'], part['toolName'], part['input'] ?? part['args']));
    else sorted.other.push(part);
  }
  return [sorted.message(m['role'])];
}

/** A `tool-result` part's value: AI SDK 5+ `output: { type, value }`, AI SDK 4 `result`. */
function toolResultValue(part: Dict): unknown {
  const output = part['output'];
  if (isDict(output) && 'value' in output) return output['value'];
  return output ?? part['result'];
}

/** The AI SDK's call-level prompt (`ai.prompt`: `{ system, prompt, messages }`) as obs messages. */
export function aiSdkPrompt(prompt: unknown): unknown {
  if (!isDict(prompt)) return prompt;
  const out: unknown[] = [];
  const system = prompt['system'];
  if (typeof system === 'string') out.push(...systemMessages(system));
  else if (system !== undefined) out.push(...aiSdkMessages(Array.isArray(system) ? system : [system]));
  const text = prompt['prompt'];
  if (typeof text === 'string') out.push({ role: 'user', content: text });
  else if (Array.isArray(text)) out.push(...aiSdkMessages(text));
  if (Array.isArray(prompt['messages'])) out.push(...aiSdkMessages(prompt['messages']));
  return out.length > 0 ? out : prompt;
}

/** An assistant message from a reported text and tool calls (AI SDK `ai.response.*`). */
export function assistantMessage(text: unknown, toolCalls: LlmToolCall[], reasoning?: unknown): LlmMessage {
  const out: LlmMessage = { role: 'assistant', content: typeof text === 'string' ? text : (text ?? '') };
  if (toolCalls.length > 0) out.tool_calls = toolCalls;
  if (typeof reasoning === 'string' && reasoning !== '') out.reasoning = reasoning;
  return out;
}

/** The AI SDK's reported tool calls (`toolCallId`, `toolName`, `input` or `args`) as obs tool calls. */
export function aiSdkToolCalls(calls: unknown): LlmToolCall[] {
  if (!Array.isArray(calls)) return [];
  return calls.filter(isDict).map((c) => toolCall(c['toolCallId'], c['toolName'], c['input'] ?? c['args']));
}
