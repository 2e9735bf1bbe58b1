/** LangChain's run kinds, a run's name, and the observation type each becomes. */
import type { ObservationType } from '@obs/core';
import { truncateText } from '@obs/core/kit';

/** The four kinds of LangChain runs (agent actions belong to chain runs). */
export type RunKind = 'chain' | 'llm' | 'tool' | 'retriever';

const FALLBACK_NAMES: Record<RunKind, string> = { chain: 'chain', llm: 'llm', tool: 'tool', retriever: 'retriever' };

/** Chains named like agents (`AgentExecutor`, a LangGraph `agent` node, `ReactAgent`) are agents. */
const AGENT_NAME = /agent/i;

/**
 * Longest run or event name written. Core cuts inputs and outputs, not names, and one huge name
 * (a run name built from user input) would make its whole export batch unsendable.
 */
const MAX_NAME_CHARS = 1_000;

/** `name` cut to `MAX_NAME_CHARS`, with core's visible marker. */
export function boundedName(name: string): string {
  return truncateText(name, MAX_NAME_CHARS);
}

/** A run's name: the run name LangChain gives, else the class of the runnable. */
export function runName(serialized: unknown, name: unknown, kind: RunKind): string {
  if (typeof name === 'string' && name.length > 0) return boundedName(name);
  try {
    const s = serialized as { name?: unknown; id?: unknown } | undefined;
    if (typeof s?.name === 'string' && s.name.length > 0) return boundedName(s.name);
    if (Array.isArray(s?.id) && s.id.length > 0) return boundedName(String(s.id[s.id.length - 1]));
  } catch {
    // An unreadable serialized form: the kind names the run.
  }
  return FALLBACK_NAMES[kind];
}

/** The observation type of a run. */
export function observationType(kind: RunKind, name: string): ObservationType {
  switch (kind) {
    case 'llm':
      return 'generation';
    case 'tool':
      return 'tool';
    case 'retriever':
      return 'retriever';
    default:
      return AGENT_NAME.test(name) ? 'agent' : 'chain';
  }
}
