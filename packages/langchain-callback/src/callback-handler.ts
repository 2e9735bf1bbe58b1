/**
 * The LangChain callback handler: every hook funnels into three chokepoints (start and
 * register, end, event) that tie run bookkeeping (run-tracker.ts), IO conversion (run-io.ts)
 * and span writing (span-writer.ts) together, and never throw into LangChain.
 */
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import type { AgentAction, AgentFinish } from '@langchain/core/agents';
import type { DocumentInterface } from '@langchain/core/documents';
import type { Serialized } from '@langchain/core/load/serializable';
import type { BaseMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import type { ChainValues } from '@langchain/core/utils/types';
import { getObsHandle, initObs, type ObsObservationAttributes } from '@obs/core';
import type { CallbackHandlerOptions } from './options.js';
import { describedOr, hookFailed, isPlainRecord, noteUnreadable, readableRecord, readableTags } from './safety.js';
import { RootContexts } from './root-context.js';
import { observationType, runName, type RunKind } from './run-kind.js';
import { RunIO, type Opening } from './run-io.js';
import { graphNodeName, isAgentRun, offerPromptToSibling } from './run-metadata.js';
import { RunTracker, type RunState } from './run-tracker.js';
import { readSettings } from './settings.js';
import { SpanWriter } from './span-writer.js';
import { SyncStartHooks } from './sync-start-hooks.js';
import type { Dict } from '@obs/core/kit';

/** The events a run can report; each is also the event's name when what LangChain passed cannot be read. */
type EventKind = 'agent action' | 'agent finish' | 'custom event';

/** What LangChain passes a start hook after the run's input: the run, its parent and what the run was configured with. */
type RunArgs = [runId: string, parentRunId?: string, tags?: string[], metadata?: Dict, name?: string];
/** The model start hooks' (the call's `extraParams` before the tags). */
type ModelRunArgs = [runId: string, parentRunId?: string, extraParams?: Dict, tags?: string[], metadata?: Dict, name?: string];

/** What an end callback that says nothing but its error adds. */
const nothing = (): ObsObservationAttributes => ({});

/**
 * A LangChain callback handler that turns LangChain and LangGraph runs into obs observations.
 * Pass it as `callbacks: [handler]` to any runnable; one instance can serve every request.
 *
 * Each root run nests under the span that was active where *that* invocation started (e.g. the
 * request's root observation), with LangChain's background callbacks on or off, and every
 * observation of the run tree carries the trace attributes (user, session, tags, metadata).
 *
 * @example
 * ```ts
 * const handler = new CallbackHandler({ userId: 'u-1', sessionId: 's-1' });
 * await chain.invoke({ question }, { callbacks: [handler] });
 * ```
 */
export class CallbackHandler extends SyncStartHooks {
  override name = 'obs_callback_handler';

  private readonly tracker: RunTracker;
  private readonly io: RunIO;
  private readonly writer: SpanWriter;

  constructor(options: CallbackHandlerOptions = {}) {
    super();
    const settings = readSettings(options);
    // Inline by default: the handler's work is synchronous and small, and running it where
    // LangChain dispatches gives exact end times and leaves nothing queued when invoke() resolves.
    this.awaitHandlers = !settings.background;
    getObsHandle() ?? initObs();
    this.io = new RunIO(settings.mask);
    this.writer = new SpanWriter(this.io, new RootContexts(settings.trace, this.io.secretsRedacted(settings.traceMetadata)));
    this.tracker = new RunTracker({ ...settings.limits, onAbandon: (run, reason, endTime) => this.writer.abandon(run, reason, endTime) });
  }

  /** LangChain copies handlers in some paths; the copy must share the run state. */
  override copy(): this {
    return this;
  }

  /** Runs started and not ended yet (diagnostics; 0 when nothing is in flight). */
  get openRuns(): number {
    return this.tracker.openRuns;
  }

  /**
   * Waits for LangChain's pending background callbacks, then for obs to export every span.
   * Call it before a short-lived process or serverless function ends.
   */
  async flush(): Promise<void> {
    await awaitAllCallbacks();
    await getObsHandle()?.flush();
  }

  // Chains (LangChain passes (runId, parentRunId, tags, metadata, runType, runName, extra); the
  // declared parameter names of BaseCallbackHandler differ, the types agree).

  override handleChainStart(
    chain: Serialized,
    inputs: ChainValues,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Dict,
    _runType?: string,
    name?: string,
    extra?: Dict,
  ): void {
    this.start('handleChainStart', 'chain', chain, [runId, parentRunId, tags, metadata, name], (run, meta) => {
      // A LangGraph node run is named after the node.
      run.name = graphNodeName(run, meta) ?? run.name;
      // Streaming chains get their input with the end callback.
      run.deferredInput = this.io.defersInput(extra);
      offerPromptToSibling(run, meta);
      const type = isAgentRun(run, meta) ? 'agent' : observationType('chain', run.name);
      return { type, attrs: { input: run.deferredInput ? undefined : this.io.chainInput(inputs) } };
    });
  }

  override handleChainEnd(outputs: ChainValues, runId: string, _parentRunId?: string, _tags?: string[], kwargs?: { inputs?: Dict }): void {
    this.end('handleChainEnd', runId, (run) => ({ output: this.io.chainOutput(outputs), ...this.io.deferredInput(run, kwargs) }));
  }

  override handleChainError(err: unknown, runId: string, _parentRunId?: string, _tags?: string[], kwargs?: { inputs?: Dict }): void {
    this.end('handleChainError', runId, (run) => this.io.deferredInput(run, kwargs), err);
  }

  // Models

  override handleChatModelStart(llm: Serialized, messages: BaseMessage[][], ...args: ModelRunArgs): void {
    this.startModel('handleChatModelStart', llm, args, () => this.io.chatInput(messages));
  }

  override handleLLMStart(llm: Serialized, prompts: string[], ...args: ModelRunArgs): void {
    this.startModel('handleLLMStart', llm, args, () => this.io.prompts(prompts));
  }

  override handleLLMNewToken(token: string, _idx: unknown, runId: string): void {
    try {
      this.tracker.get(runId)?.streamed(token);
    } catch (err) {
      hookFailed('handleLLMNewToken', err);
    }
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    this.end('handleLLMEnd', runId, (run) => this.io.generationEnd(run, output));
  }

  override handleLLMError(err: unknown, runId: string): void {
    this.end('handleLLMError', runId, nothing, err);
  }

  // Tools and retrievers

  override handleToolStart(tool: Serialized, input: string, ...args: [...RunArgs, toolCallId?: string]): void {
    const toolCallId = args[5];
    this.start('handleToolStart', 'tool', tool, args, (_run, meta) => ({
      type: 'tool',
      attrs: { input: this.io.toolInput(input) },
      metadata: toolCallId ? { ...meta, tool_call_id: toolCallId } : meta,
    }));
  }

  override handleToolEnd(output: unknown, runId: string): void {
    this.end('handleToolEnd', runId, () => ({ output: this.io.plain(output) }));
  }

  override handleToolError(err: unknown, runId: string): void {
    this.end('handleToolError', runId, nothing, err);
  }

  override handleRetrieverStart(retriever: Serialized, query: string, ...args: RunArgs): void {
    this.start('handleRetrieverStart', 'retriever', retriever, args, () => ({
      type: 'retriever',
      attrs: { input: this.io.value(query) },
    }));
  }

  override handleRetrieverEnd(documents: DocumentInterface[], runId: string): void {
    this.end('handleRetrieverEnd', runId, () => ({ output: this.io.documents(documents) }));
  }

  override handleRetrieverError(err: unknown, runId: string): void {
    this.end('handleRetrieverError', runId, nothing, err);
  }

  // Agents and events. An agent action carries its chain's run id: the chain becomes an `agent`
  // observation and each action an event under it, so nothing keyed by run id is replaced.

  override handleAgentAction(action: AgentAction, runId: string): void {
    this.event('handleAgentAction', runId, 'agent action', () => [
      typeof action.tool === 'string' ? `agent action: ${action.tool}` : 'agent action',
      this.io.agentEvent('input', action.toolInput, action.log),
    ]);
  }

  override handleAgentEnd(action: AgentFinish, runId: string): void {
    this.event('handleAgentEnd', runId, 'agent finish', () => [
      'agent finish',
      this.io.agentEvent('output', action.returnValues, action.log),
    ]);
  }

  override handleCustomEvent(eventName: string, data: unknown, runId: string): void {
    this.event('handleCustomEvent', runId, 'custom event', () => [
      typeof eventName === 'string' ? eventName : 'custom event',
      { input: this.io.plain(data) },
    ]);
  }

  // The chokepoints

  /** Register (background mode; inline, the start callback runs right after in the same call): the run is recorded. */
  protected register(runId: string, parentRunId: string | undefined, kind: RunKind, serialized: unknown, name: unknown): void {
    if (this.awaitHandlers) return;
    try {
      this.tracker.reserve(runId, parentRunId, kind, runName(serialized, name, kind));
    } catch (err) {
      hookFailed('_createRunFor*Start', err);
    }
  }

  /** Start and register: the run (registered now if need be) gets its observation, under its parent run or invocation. */
  private start(
    hook: string,
    kind: RunKind,
    serialized: unknown,
    [runId, parentRunId, tags, metadata, name]: readonly [...RunArgs, ...unknown[]],
    describe: (run: RunState, metadata: Dict | undefined) => Opening,
  ): void {
    try {
      const run = this.tracker.get(runId) ?? this.tracker.reserve(runId, parentRunId, kind, runName(serialized, name, kind));
      if (run.obs) return;
      try {
        // Shapes first: a string where an array is expected would be walked character by character.
        const meta = isPlainRecord(metadata) ? metadata : undefined;
        const opening = describe(run, meta);
        return this.writer.open(run, opening, opening.metadata ?? meta, Array.isArray(tags) ? tags : undefined);
      } catch (err) {
        noteUnreadable(`what LangChain passed to ${hook}`, err);
      }
      // Metadata or tags that cannot be read: the run opens with what can be, else with its type alone.
      const readable = readableRecord(metadata);
      const fallback: Opening = { type: observationType(kind, run.name), attrs: {} };
      const opening = describedOr(hook, (r) => describe(r, readable), run, fallback);
      this.writer.open(run, opening, opening.metadata ?? readable, readableTags(tags));
    } catch (err) {
      hookFailed(hook, err);
    }
  }

  /** A model's start: a generation with its input (read inside `start`'s guard) and the call's parameters. */
  private startModel(
    hook: string,
    llm: Serialized,
    [runId, parentRunId, extraParams, tags, metadata, name]: ModelRunArgs,
    input: () => unknown,
  ): void {
    this.start(hook, 'llm', llm, [runId, parentRunId, tags, metadata, name], (run, meta) =>
      this.io.generationStart(run, input(), extraParams, meta),
    );
  }

  /** End: the run's observation is ended with what the end callback said (and the error, if it failed). */
  private end(hook: string, runId: string, describe: (run: RunState) => ObsObservationAttributes, ...error: [unknown?]): void {
    try {
      const run = this.tracker.get(runId);
      if (!run?.obs) return;
      const attrs = describe(run);
      const endTime = error.length > 0 ? this.writer.fail(run, error[0], attrs) : this.writer.close(run, attrs);
      this.tracker.ended(run, endTime);
    } catch (err) {
      hookFailed(hook, err);
    }
  }

  /** An event under a run (agent actions also make their run an `agent`); it keeps the run tree from being abandoned. */
  private event(hook: string, runId: string, kind: EventKind, describe: () => [string, ObsObservationAttributes]): void {
    try {
      const run = this.tracker.get(runId);
      const ctx = run?.childContext();
      if (!run || !ctx) return;
      if (kind !== 'custom event') this.writer.markAgent(run);
      const [name, attrs] = describedOr(hook, describe, undefined, [kind, {}]);
      this.tracker.touch(run);
      this.writer.event(run, ctx, name, attrs);
    } catch (err) {
      hookFailed(hook, err);
    }
  }
}
