/**
 * Turns LangChain values (messages, prompt values, documents) into the plain shapes an LLM trace
 * view reads (`{ role, content, tool_calls }`), instead of LangChain's serialised constructor form.
 */

/** A chat message as written on observations. */
export interface PlainMessage {
  role: string;
  content: unknown;
  name?: string;
  tool_calls?: unknown[];
  invalid_tool_calls?: unknown[];
  tool_call_id?: string;
  status?: string;
  additional_kwargs?: Record<string, unknown>;
}

const MAX_DEPTH = 8;

const ROLES: Record<string, string> = {
  human: 'user',
  ai: 'assistant',
  system: 'system',
  developer: 'developer',
  tool: 'tool',
  function: 'function',
};

interface MessageLike {
  content: unknown;
  name?: string;
  role?: string;
  type?: string;
  _getType(): string;
  tool_calls?: unknown[];
  invalid_tool_calls?: unknown[];
  tool_call_id?: string;
  status?: string;
  additional_kwargs?: Record<string, unknown>;
}

/** Whether `v` is a LangChain message (duck-typed, so any copy of `@langchain/core` works). */
export function isMessage(v: unknown): v is MessageLike {
  return typeof v === 'object' && v !== null && typeof (v as MessageLike)._getType === 'function' && 'content' in v;
}

/** A message as `{ role, content, ... }`, tool calls included. */
export function toPlainMessage(m: MessageLike): PlainMessage {
  const type = m.type ?? m._getType();
  const role = type === 'generic' && typeof m.role === 'string' ? m.role : (ROLES[type] ?? type);
  const out: PlainMessage = { role, content: m.content };
  if (m.name) out.name = m.name;
  if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) out.tool_calls = m.tool_calls;
  if (Array.isArray(m.invalid_tool_calls) && m.invalid_tool_calls.length > 0) out.invalid_tool_calls = m.invalid_tool_calls;
  if (typeof m.tool_call_id === 'string') out.tool_call_id = m.tool_call_id;
  if (m.status === 'error') out.status = m.status;
  const kw = m.additional_kwargs;
  // Legacy providers put function/tool calls only in additional_kwargs.
  if (kw && out.tool_calls === undefined && (kw['tool_calls'] !== undefined || kw['function_call'] !== undefined)) {
    out.additional_kwargs = kw;
  }
  return out;
}

/** A value with every LangChain message, prompt value and document inside it made plain. */
export function toPlain(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      const p = toPlain(v, depth + 1);
      if (p !== v) (out ??= value.slice())[i] = p;
    }
    return out ?? value;
  }
  if (isMessage(value)) return toPlainMessage(value);
  const o = value as Record<string, unknown>;
  // ChatPromptValue / StringPromptValue / ImagePromptValue.
  if (typeof o['toChatMessages'] === 'function') {
    if (Array.isArray(o['messages'])) return toPlain(o['messages'], depth + 1);
    if (typeof o['value'] === 'string') return o['value'];
  }
  if (typeof o['pageContent'] === 'string') return toPlainDocument(o);
  if (o['lg_name'] === 'Command' || o['lg_name'] === 'Send') return toPlainGraphControl(o, depth);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  let out: Record<string, unknown> | undefined;
  for (const key in o) {
    const v = o[key];
    const p = toPlain(v, depth + 1);
    if (p !== v) (out ??= { ...o })[key] = p;
  }
  return out ?? value;
}

/**
 * A LangGraph `Command` (`{ update, goto, resume, graph }`) or `Send` (`{ node, args }`) with the
 * messages inside made plain: their own `toJSON` would write LangChain's constructor form.
 */
function toPlainGraphControl(o: Record<string, unknown>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = { type: o['lg_name'] };
  const keys = o['lg_name'] === 'Send' ? ['node', 'args'] : ['update', 'goto', 'resume', 'graph'];
  for (const key of keys) {
    const v = o[key];
    if (v === undefined || (key === 'goto' && Array.isArray(v) && v.length === 0)) continue;
    out[key] = toPlain(v, depth + 1);
  }
  return out;
}

/** A retrieved document as `{ pageContent, metadata, id? }`. */
export function toPlainDocument(d: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { pageContent: d['pageContent'] };
  const meta = d['metadata'];
  if (typeof meta === 'object' && meta !== null && Object.keys(meta).length > 0) out['metadata'] = meta;
  if (d['id'] !== undefined) out['id'] = d['id'];
  return out;
}

/**
 * A chain's input or output as people read it: LangChain wraps a bare value as `{ input }` or
 * `{ output }`; the wrapper is dropped.
 */
export function unwrapChainValues(values: unknown, key: 'input' | 'output'): unknown {
  if (values && typeof values === 'object' && !Array.isArray(values)) {
    const o = values as Record<string, unknown>;
    let n = 0;
    for (const _ in o) if (++n > 1) break;
    if (n === 1 && key in o) return toPlain(o[key]);
  }
  return toPlain(values);
}

/**
 * Longer tool inputs stay text: obs cuts every value at ~1 MB (core's `maxValueChars` default),
 * so parsing more would block the app for nothing.
 */
const MAX_PARSED_TOOL_INPUT_CHARS = 1_000_000;

/**
 * A tool's input: LangChain hands it over as a string, JSON for structured tools, and wraps the
 * string argument of a plain tool as `{ input }`.
 */
export function parseToolInput(input: unknown): unknown {
  if (typeof input !== 'string') return unwrapChainValues(input, 'input');
  const c = input.charCodeAt(0);
  if ((c !== 123 && c !== 91) || input.length > MAX_PARSED_TOOL_INPUT_CHARS) return input;
  try {
    return unwrapChainValues(JSON.parse(input), 'input');
  } catch {
    return input;
  }
}
