/**
 * What an MCP request's observation is called and holds, by method, the same on both sides. Names
 * follow the GenAI semantic conventions for MCP: `{method} {target}`, the target being the tool's
 * or the prompt's name (`tools/call get_weather`, `prompts/get greet`), else the method alone
 * (`tools/list`; `resources/read` too: a URI is too many names, so it goes to the input).
 * `tools/call` is a `tool`, every other method a `span`.
 */
import { type Dict, isDict } from '@obs/core/kit';

/** Lifecycle requests: the connection's own traffic, not the app's work. Not observed. */
const LIFECYCLE = new Set(['initialize', 'ping', 'server/discover']);

/** The field of a result that is its output, by method. */
const OUTPUT_FIELD: Record<string, string> = {
  'tools/call': 'content',
  'prompts/get': 'messages',
  'resources/read': 'contents',
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'completion/complete': 'completion',
};

/** Whether requests of `method` get an observation. */
export function isObserved(method: unknown): method is string {
  return typeof method === 'string' && !LIFECYCLE.has(method);
}

export function observationName(method: string, params: unknown): string {
  const target = (method === 'tools/call' || method === 'prompts/get') && isDict(params) ? params['name'] : undefined;
  return typeof target === 'string' && target !== '' ? `${method} ${target}` : method;
}

export function observationType(method: string): 'tool' | 'span' {
  return method === 'tools/call' ? 'tool' : 'span';
}

/** The arguments of a tool call or prompt; else the params without `_meta` (a URI, a cursor). */
export function requestInput(params: unknown): unknown {
  if (!isDict(params)) return undefined;
  if ('arguments' in params) return params['arguments'];
  return withoutMeta(params);
}

/** The result's content (a tool's content blocks, a prompt's messages, a listing's items). */
export function resultOutput(method: string, result: unknown): unknown {
  if (!isDict(result)) return result;
  const field = OUTPUT_FIELD[method];
  return field !== undefined && field in result ? result[field] : withoutMeta(result);
}

/** A tool result's `isError: true`: its first text block is the status message. */
export function resultError(result: unknown): string | undefined {
  if (!isDict(result) || result['isError'] !== true) return undefined;
  const content = Array.isArray(result['content']) ? result['content'] : [];
  const text = content.find((c): c is Dict => isDict(c) && typeof c['text'] === 'string');
  return text ? String(text['text']).slice(0, 500) : 'the tool returned isError: true';
}

function withoutMeta(value: Dict): Dict | undefined {
  const { _meta, ...rest } = value;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** `name version` of an MCP implementation (`serverInfo`, `clientInfo`). */
export function implementation(info: Dict): string {
  return [info['name'], info['version']].filter((p) => typeof p === 'string' && p !== '').join(' ');
}
