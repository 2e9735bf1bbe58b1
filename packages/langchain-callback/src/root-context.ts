/**
 * The context a run tree's root observation starts in: the one captured where its invocation
 * started (a request's), with the handler's and the root run's trace attributes on it.
 */
import { ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { ObsAttributes, type PropagateAttributesParams } from '@obs/core';
import { contextWithAttributes, type Dict, propagatedAttributesOf } from '@obs/core/kit';
import { noteUnreadable, readableTags } from './safety.js';
import { isPlumbingTag } from './run-metadata.js';
import type { RunTree } from './run-tracker.js';

export class RootContexts {
  /** The handler's trace attributes, as far as core accepts them. */
  private readonly base: PropagateAttributesParams;
  /** The parent context of roots with nothing of their own, outside any span: the same for all. */
  private plain: Context | undefined;

  /** `trace`: the handler's trace attributes (its options); `metadata`: its trace metadata, masked. */
  constructor(trace: Omit<PropagateAttributesParams, 'metadata'>, metadata: unknown) {
    this.base = acceptedByCore({ ...trace, metadata: isJson(metadata) ? (metadata as Dict) : undefined });
  }

  /** The tree's root parent context, computed once per tree from the root run's metadata and tags. */
  parentOf(tree: RunTree, metadata: Dict | undefined, tags: string[] | undefined): Context {
    if (tree.rootParent) return tree.rootParent;
    const base = this.base;
    const userId = metadata?.['obsUserId'];
    const sessionId = metadata?.['obsSessionId'];
    const runTags = metadata?.['obsTags'];
    // Outside any span or propagation scope (scripts, workers) with nothing per run, every root
    // gets the same parent context: computed once.
    const plain =
      tree.captured === ROOT_CONTEXT &&
      !tags?.some((t) => !isPlumbingTag(t)) &&
      userId === undefined &&
      sessionId === undefined &&
      runTags === undefined;
    if (plain && this.plain) return (tree.rootParent = this.plain);
    // LangChain's positional tags (`seq:step:3`) say where a run sits in its parent, not what the trace is.
    const ownTags = tags?.filter((t) => !isPlumbingTag(t)) ?? [];
    const allTags = [...(base.tags ?? []), ...ownTags, ...(readableTags(runTags) ?? [])];
    const params: PropagateAttributesParams = {
      ...base,
      userId: typeof userId === 'string' ? userId : base.userId,
      sessionId: typeof sessionId === 'string' ? sessionId : base.sessionId,
      tags: allTags.length > 0 ? allTags : undefined,
    };
    const empty =
      !params.userId && !params.sessionId && !params.tags && !params.version && !params.traceName && params.metadata === undefined;
    tree.rootParent = empty ? tree.captured : contextWithAttributes(tree.captured, params, { setOnActiveSpan: false });
    if (plain) this.plain = tree.rootParent;
    return tree.rootParent;
  }
}

/**
 * The values of `params` core keeps: checked once here (core says why it drops one, in one line),
 * so that core does not drop them again, with a line each time, for every root run.
 */
function acceptedByCore(params: PropagateAttributesParams): PropagateAttributesParams {
  const kept = propagatedAttributesOf(contextWithAttributes(ROOT_CONTEXT, params, { setOnActiveSpan: false })) ?? {};
  const tags = kept[ObsAttributes.TRACE_TAGS];
  return {
    userId: kept[ObsAttributes.TRACE_USER_ID] === params.userId ? params.userId : undefined,
    sessionId: kept[ObsAttributes.TRACE_SESSION_ID] === params.sessionId ? params.sessionId : undefined,
    version: kept[ObsAttributes.VERSION] === params.version ? params.version : undefined,
    traceName: kept[ObsAttributes.TRACE_NAME] === params.traceName ? params.traceName : undefined,
    tags: Array.isArray(tags) && tags.length > 0 ? (tags as string[]) : undefined,
    metadata: params.metadata,
  };
}

/** Whether trace metadata can be written (core's rule: it serialises as JSON). */
function isJson(metadata: unknown): boolean {
  if (metadata === undefined) return false;
  try {
    JSON.stringify(metadata);
    return true;
  } catch (err) {
    noteUnreadable('traceMetadata', err);
    return false;
  }
}
