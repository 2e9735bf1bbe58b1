/** LangChain's run kinds, a run's name, and the observation type each becomes. */
import type { ObservationType } from '@obs/core';

/** The four kinds of LangChain runs (agent actions belong to chain runs). */
export type RunKind = 'chain' | 'llm' | 'tool' | 'retriever';

const FALLBACK_NAMES: Record<RunKind, string> = { chain: 'chain', llm: 'llm', tool: 'tool', retriever: 'retriever' };

/** Chains named like agents (`AgentExecutor`, a LangGraph `agent` node, `ReactAgent`) are agents. */
const AGENT_NAME = /agent/i;

/** A run's name: the run name LangChain gives, else the class of the runnable. */
export function runName(serialized: unknown, name: unknown, kind: RunKind): string {
  if (typeof name === 'string' && name.length > 0) return name;
  const s = serialized as { name?: unknown; id?: unknown } | undefined;
  if (typeof s?.name === 'string' && s.name.length > 0) return s.name;
  if (Array.isArray(s?.id) && s.id.length > 0) return String(s.id[s.id.length - 1]);
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
