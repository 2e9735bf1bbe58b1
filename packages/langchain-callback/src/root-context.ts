/**
 * The context a run tree's root observation starts in: the one captured where its invocation
 * started (a request's), with the handler's and the root run's trace attributes on it.
 */
import { ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import type { PropagateAttributesParams } from '@obs/core';
import { contextWithAttributes } from '@obs/core/kit';
import { isPlumbingTag } from './run-metadata.js';
import type { RunTree } from './run-tracker.js';

type Dict = Record<string, unknown>;

export class RootContexts {
  /** The parent context of roots with nothing of their own, outside any span: the same for all. */
  private plain: Context | undefined;

  /** `base`: the handler's trace attributes (its options), masked once. */
  constructor(private readonly base: PropagateAttributesParams) {}

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
    const allTags = [...(base.tags ?? []), ...ownTags, ...(Array.isArray(runTags) ? runTags : [])];
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
