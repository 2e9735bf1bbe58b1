/** What run metadata says about a run beyond its own values: agents, graph nodes, plumbing, linked prompts. */
import { CONTROL_METADATA_KEYS } from './options.js';
import { boundedName } from './run-kind.js';
import type { RunState } from './run-tracker.js';
import type { Dict } from '@obs/core/kit';

/** Tags LangChain adds to its own plumbing runs (LangGraph's `__start__`, channel writes, ...). */
export const HIDDEN_TAG = 'langsmith:hidden';

/** LangChain's positional tags (`seq:step:2`, `graph:step:1`, `map:key:x`): the tree shows the position. */
const POSITION_TAG = /^(?:seq:step:|graph:step:|map:key:|branch:|condition:)/;

/** Tags that are LangChain plumbing (positions, `langsmith:*` flags), never trace or observation tags. */
export function isPlumbingTag(tag: string): boolean {
  return POSITION_TAG.test(tag) || tag.startsWith('langsmith:');
}

/** `ls_integration` of the root run of langchain v1's `createAgent`. */
const CREATE_AGENT_INTEGRATION = 'langchain_create_agent';

/**
 * Whether a chain run is an agent by what LangChain says of it: the run where `createAgent`'s
 * metadata (`ls_integration: "langchain_create_agent"`, `lc_agent_name`) first appears. Its
 * descendants inherit that metadata and are not agents for it.
 */
export function isAgentRun(run: { parent?: { metadata?: Dict } | undefined }, metadata: Dict | undefined): boolean {
  if (!metadata) return false;
  const parent = run.parent?.metadata;
  if (metadata['ls_integration'] === CREATE_AGENT_INTEGRATION && parent?.['ls_integration'] !== CREATE_AGENT_INTEGRATION) return true;
  const agentName = metadata['lc_agent_name'];
  return typeof agentName === 'string' && parent?.['lc_agent_name'] !== agentName;
}

/**
 * LangSmith bookkeeping in run metadata: `ls_*` (provider, model and parameters become generation
 * fields), package `versions`, and `checkpoint_ns` (repeats `langgraph_checkpoint_ns`).
 */
function isPlumbingKey(key: string): boolean {
  return (key.charCodeAt(0) === 108 && key.startsWith('ls_')) || key === 'versions' || key === 'checkpoint_ns';
}

/**
 * The metadata an observation shows for its run: the run's metadata without the keys it inherited
 * unchanged from its parent run (LangChain copies a parent's metadata into every descendant, so
 * each observation would otherwise repeat the whole tree's), without the handler's control keys
 * and LangSmith bookkeeping, plus the run's own tags.
 */
export function observationMetadata(
  metadata: Dict | undefined,
  parentMetadata: Dict | undefined,
  tags: string[] | undefined,
  parentTags: string[] | undefined,
): Dict | undefined {
  let out: Dict | undefined;
  if (metadata) {
    for (const key in metadata) {
      const v = metadata[key];
      if (v === undefined || CONTROL_METADATA_KEYS.has(key) || isPlumbingKey(key)) continue;
      if (parentMetadata && parentMetadata[key] === v) continue;
      (out ??= {})[key] = v;
    }
  }
  if (tags && tags.length > 0) {
    let own: string[] | undefined;
    for (const t of tags) {
      if (isPlumbingTag(t) || parentTags?.includes(t)) continue;
      (own ??= []).push(t);
    }
    if (own) (out ??= {})['tags'] = own;
  }
  return out;
}

/** A LangGraph node run's name (`langgraph_node`), for the run where the node starts, not its inner runs. */
export function graphNodeName(run: RunState, metadata: Dict | undefined): string | undefined {
  const node = metadata?.['langgraph_node'];
  if (typeof node !== 'string') return undefined;
  return run.parent?.metadata?.['langgraph_checkpoint_ns'] !== metadata?.['langgraph_checkpoint_ns'] ? boundedName(node) : undefined;
}

/** The obs prompt a generation links to. */
export interface PromptRef {
  name: string;
  version: number;
  isFallback?: boolean;
}

/**
 * An `obsPrompt` on a chain that is not a model (typically `prompt.withConfig({ metadata })`)
 * is meant for the model that runs next beside it, under the same parent.
 */
export function offerPromptToSibling(run: RunState, metadata: Dict | undefined): void {
  const prompt = promptOf(metadata);
  if (prompt && run.parent && promptOf(run.parent.metadata)?.name !== prompt.name) run.parent.pendingPrompt = prompt;
}

/** A generation's prompt: its own `obsPrompt`, else the one a sibling offered (taken once). */
export function claimPrompt(run: RunState, metadata: Dict | undefined): PromptRef | undefined {
  const own = promptOf(metadata);
  if (own || !run.parent?.pendingPrompt) return own;
  const offered = run.parent.pendingPrompt;
  run.parent.pendingPrompt = undefined;
  return offered;
}

/** `obsPrompt` run metadata: `{ name, version }` of the obs prompt a generation used. */
export function promptOf(metadata: Dict | undefined): PromptRef | undefined {
  const p = metadata?.['obsPrompt'] as { name?: unknown; version?: unknown; isFallback?: unknown } | undefined;
  if (!p || typeof p !== 'object' || typeof p.name !== 'string') return undefined;
  const version = typeof p.version === 'number' ? p.version : Number(p.version);
  return p.isFallback === true ? { name: p.name, version, isFallback: true } : { name: p.name, version };
}
