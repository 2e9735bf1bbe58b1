/**
 * Span writing: a run's observation started under its parent run (or, for a root, under the
 * context its invocation started in), its attributes written once at its end, errors,
 * interrupts, abandoned runs and events under a run.
 */
import type { Context } from '@opentelemetry/api';
import { ObsAttributes, startObservation, type ObsObservationAttributes } from '@obs/core';
import { type Dict, isDict, logger, recordErrorOnSpan, truncateText } from '@obs/core/kit';
import { graphBubbleUp } from './interrupt.js';
import type { RootContexts } from './root-context.js';
import { boundedName, observationType } from './run-kind.js';
import { reasonOf } from './safety.js';
import type { Opening, RunIO } from './run-io.js';
import { HIDDEN_TAG, observationMetadata } from './run-metadata.js';
import type { RunState } from './run-tracker.js';

/** Longest error message written as a status message (a provider's error can quote a whole request). */
const MAX_ERROR_MESSAGE_CHARS = 64 * 1024;

export class SpanWriter {
  constructor(
    private readonly io: RunIO,
    private readonly roots: RootContexts,
  ) {}

  /** Starts the run's observation; what the start callback said is kept and written at the end. */
  open(run: RunState, { type, attrs, provider }: Opening, metadata: Dict | undefined, tags: string[] | undefined): void {
    run.metadata = metadata;
    run.tags = tags;
    const parent = run.parent;
    const parentCtx = parent
      ? (parent.childContext() ?? this.roots.parentOf(run.tree, parent.metadata, parent.tags))
      : this.roots.parentOf(run.tree, metadata, tags);
    let meta = observationMetadata(metadata, parent?.metadata, tags, parent?.tags);
    if (provider) (meta ??= {})['provider'] = provider;
    if (meta) attrs.metadata = this.io.secretsRedacted(meta);
    if (tags?.includes(HIDDEN_TAG)) attrs.level = 'DEBUG';
    // Attributes are written once, at the end: one conversion and one setAttributes per span.
    run.obs = startObservation(run.name, undefined, { asType: type, startTime: run.startTime, parentContext: parentCtx });
    run.startAttrs = attrs;
    run.parentCtx = parentCtx;
  }

  /** Ends the run's observation with its start and end attributes; returns the end time. */
  close(run: RunState, attrs: ObsObservationAttributes, error?: unknown): number {
    const endTime = run.tree.now();
    const obs = run.obs!;
    run.tokens = undefined;
    obs.update(withStartAttributes(run, attrs));
    // The message read here, never throwing (core's own reading gives up on an unreadable error), and bounded.
    if (error !== undefined) recordErrorOnSpan(obs.otelSpan, error, truncateText(reasonOf(error), MAX_ERROR_MESSAGE_CHARS));
    obs.end(endTime);
    return endTime;
  }

  /**
   * Ends a failed run: level ERROR, status message, OTel status and exception event, and the text
   * streamed before the failure as output (and its first-token time). LangGraph interrupts are not errors.
   */
  fail(run: RunState, err: unknown, attrs: ObsObservationAttributes): number {
    const partial = run.tokens && !run.tokens.empty ? run.tokens.text() : undefined;
    run.tokens = undefined;
    if (run.firstTokenAt !== undefined) attrs.completionStartTime = new Date(run.firstTokenAt);
    const bubbleUp = graphBubbleUp(err);
    if (bubbleUp) {
      attrs.statusMessage = bubbleUp.name === 'ParentCommand' ? 'handed over to the parent graph' : 'interrupted';
      attrs.metadata = this.io.interruptMetadata(bubbleUp.interrupts);
      return this.close(run, attrs);
    }
    if (partial !== undefined) attrs.output = this.io.value(partial);
    return this.close(run, attrs, err);
  }

  /** Ends a run LangChain never ended (level WARNING, `abandoned: <reason>`), starting its observation if need be. */
  abandon(run: RunState, reason: string, endTime: number): void {
    try {
      if (!run.obs) {
        const parentCtx = run.parent?.childContext() ?? run.tree.rootParent ?? run.tree.captured;
        run.obs = startObservation(run.name, undefined, {
          asType: observationType(run.kind, run.name),
          startTime: run.startTime,
          parentContext: parentCtx,
        });
      }
      const attrs: ObsObservationAttributes = {
        level: 'WARNING',
        statusMessage: `abandoned: ${reason}`,
        metadata: { abandoned: true },
      };
      if (run.tokens && !run.tokens.empty) attrs.output = this.io.value(run.tokens.text());
      if (run.firstTokenAt !== undefined) attrs.completionStartTime = new Date(run.firstTokenAt);
      run.tokens = undefined;
      run.obs.update(withStartAttributes(run, attrs)).end(endTime);
    } catch (err) {
      logger.debug(`CallbackHandler: could not end an abandoned run: ${reasonOf(err)}`);
    }
  }

  /** Makes a chain run that reports agent actions an `agent` observation. */
  markAgent(run: RunState): void {
    if (run.isAgent) return;
    run.isAgent = true;
    run.obs!.otelSpan.setAttribute(ObsAttributes.OBSERVATION_TYPE, 'agent');
  }

  /** An event observation under a run. */
  event(run: RunState, parent: Context, name: string, attrs: ObsObservationAttributes): void {
    startObservation(boundedName(name), attrs, { asType: 'event', startTime: run.tree.now(), parentContext: parent });
  }
}

/** The start attributes of a run with its end attributes over them (metadata merged). */
function withStartAttributes(run: RunState, end: ObsObservationAttributes): ObsObservationAttributes {
  const start = run.startAttrs;
  if (!start) return end;
  run.startAttrs = undefined;
  const merged = { ...start, ...end };
  if (isDict(start.metadata) && isDict(end.metadata)) merged.metadata = { ...start.metadata, ...end.metadata };
  return merged;
}
