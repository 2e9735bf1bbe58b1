import { ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import type { AgentAction, AgentFinish } from '@langchain/core/agents';
import type { DocumentInterface } from '@langchain/core/documents';
import type { Serialized } from '@langchain/core/load/serializable';
import type { BaseMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import type { ChainValues } from '@langchain/core/utils/types';
import {
  getObsHandle,
  initObs,
  startObservation,
  ObsAttributes,
  DEFAULT_REDACT_KEYS,
  type ObsObservationAttributes,
  type ObservationType,
  type PropagateAttributesParams,
} from '@obs/core';
import { contextWithAttributes, logger, maskValue, redact, redactKeySet, TextCapture, toAttributeString } from '@obs/core/kit';
import { parseToolInput, toPlain, toPlainDocument, toPlainMessage, unwrapChainValues } from './convert.js';
import { generationEnd, generationStart } from './generation.js';
import { interruptsOf, isGraphBubbleUp } from './interrupt.js';
import {
  DEFAULT_ABANDON_AFTER_MS,
  DEFAULT_ABANDON_AFTER_PARENT_END_MS,
  DEFAULT_MAX_OPEN_RUNS,
  type CallbackHandlerOptions,
} from './options.js';
import { observationType, runName, type RunKind } from './run-kind.js';
import { HIDDEN_TAG, isAgentRun, isPlumbingTag, observationMetadata, promptOf } from './run-metadata.js';
import { RunTracker, type RunState, type RunTree } from './run-tracker.js';

type Dict = Record<string, unknown>;

/**
 * Keys redacted from model parameters and run metadata before anything else sees them: model
 * clients carry `apiKey` and `headers.Authorization` in their invocation parameters.
 */
const SECRET_KEYS = redactKeySet(DEFAULT_REDACT_KEYS);

/** The start attributes of a run with its end attributes over them (metadata merged). */
function withStartAttributes(run: RunState, end: ObsObservationAttributes): ObsObservationAttributes {
  const start = run.startAttrs;
  if (!start) return end;
  run.startAttrs = undefined;
  const merged = { ...start, ...end };
  if (isRecord(start.metadata) && isRecord(end.metadata)) merged.metadata = { ...start.metadata, ...end.metadata };
  return merged;
}

function isRecord(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Most streamed text kept per run, to record a partial output when a run does not end normally. */
const MAX_PARTIAL_OUTPUT_CHARS = 64 * 1024;

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
export class CallbackHandler extends BaseCallbackHandler {
  override name = 'obs_callback_handler';

  private readonly options: CallbackHandlerOptions;
  private readonly tracker: RunTracker;
  /** Handler-level trace attributes, masked once. */
  private readonly traceParams: PropagateAttributesParams;
  private plainRootParent: Context | undefined;

  constructor(options: CallbackHandlerOptions = {}) {
    super();
    this.options = options;
    // Inline by default: the handler's work is synchronous and small, and running it where
    // LangChain dispatches gives exact end times and leaves nothing queued when invoke() resolves.
    this.awaitHandlers = options.background !== true;
    getObsHandle() ?? initObs();
    this.traceParams = {
      userId: options.userId,
      sessionId: options.sessionId,
      tags: options.tags,
      version: options.version,
      traceName: options.traceName,
      metadata: maskValue(options.mask, redact(options.traceMetadata, SECRET_KEYS)),
    };
    this.tracker = new RunTracker({
      abandonAfterMs: options.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS,
      abandonAfterParentEndMs: options.abandonAfterParentEndMs ?? DEFAULT_ABANDON_AFTER_PARENT_END_MS,
      maxOpenRuns: options.maxOpenRuns ?? DEFAULT_MAX_OPEN_RUNS,
      onAbandon: (run, reason, endTime) => this.endAbandoned(run, reason, endTime),
    });
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

  // Synchronous start hooks. LangChain's CallbackManager calls `_createRunFor*Start` on tracers
  // (handlers with `_addRunToRunMap`) in the invoking code, before queueing the background
  // callbacks: with `background: true`, the one place where the invocation's own async context
  // and start time are visible. They only register the run; the start callback makes the
  // observation. Inline (the default) the start callback itself runs there, so they do nothing.

  /** @internal Marks this handler as a tracer so LangChain calls the synchronous start hooks. */
  _addRunToRunMap(run: unknown): unknown {
    return run;
  }

  /** @internal */
  _createRunForChainStart(
    chain: Serialized,
    _inputs: unknown,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    _metadata?: Dict,
    _runType?: string,
    name?: string,
  ): void {
    this.reserve(runId, parentRunId, 'chain', chain, name);
  }

  /** @internal */
  _createRunForLLMStart(
    llm: Serialized,
    _prompts: unknown,
    runId: string,
    parentRunId?: string,
    _extra?: Dict,
    _tags?: string[],
    _metadata?: Dict,
    name?: string,
  ): void {
    this.reserve(runId, parentRunId, 'llm', llm, name);
  }

  /** @internal */
  _createRunForChatModelStart(
    llm: Serialized,
    _messages: unknown,
    runId: string,
    parentRunId?: string,
    _extra?: Dict,
    _tags?: string[],
    _metadata?: Dict,
    name?: string,
  ): void {
    this.reserve(runId, parentRunId, 'llm', llm, name);
  }

  /** @internal */
  _createRunForToolStart(
    tool: Serialized,
    _input: unknown,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    _metadata?: Dict,
    name?: string,
  ): void {
    this.reserve(runId, parentRunId, 'tool', tool, name);
  }

  /** @internal */
  _createRunForRetrieverStart(
    retriever: Serialized,
    _query: unknown,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    _metadata?: Dict,
    name?: string,
  ): void {
    this.reserve(runId, parentRunId, 'retriever', retriever, name);
  }

  // Chains (LangChain passes (runId, parentRunId, tags, metadata, runType, runName, extra) at
  // runtime; the declared parameter names of BaseCallbackHandler differ, the types agree).

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
    this.guard('handleChainStart', () => {
      const run = this.started(runId, parentRunId, 'chain', chain, name);
      if (!run) return;
      // A LangGraph node run: named after the node, its step/path metadata kept as metadata.
      const node = metadata?.['langgraph_node'];
      if (typeof node === 'string' && run.parent?.metadata?.['langgraph_checkpoint_ns'] !== metadata?.['langgraph_checkpoint_ns'])
        run.name = node;
      run.deferredInput = extra?.['lc_defers_inputs'] === true;
      this.registerPromptForSibling(run, metadata);
      this.open(run, isAgentRun(run, metadata) ? 'agent' : observationType('chain', run.name), metadata, tags, {
        input: run.deferredInput ? undefined : this.capture(unwrapChainValues(inputs, 'input')),
      });
    });
  }

  override handleChainEnd(outputs: ChainValues, runId: string, _parentRunId?: string, _tags?: string[], kwargs?: { inputs?: Dict }): void {
    this.guard('handleChainEnd', () => {
      const run = this.tracker.get(runId);
      if (!run?.obs) return;
      const attrs: ObsObservationAttributes = { output: this.capture(unwrapChainValues(outputs, 'output')) };
      if (run.deferredInput && kwargs?.inputs !== undefined) attrs.input = this.capture(unwrapChainValues(kwargs.inputs, 'input'));
      this.close(run, attrs);
    });
  }

  override handleChainError(err: unknown, runId: string, _parentRunId?: string, _tags?: string[], kwargs?: { inputs?: Dict }): void {
    this.guard('handleChainError', () => {
      const run = this.tracker.get(runId);
      if (!run?.obs) return;
      const attrs: ObsObservationAttributes = {};
      if (run.deferredInput && kwargs?.inputs !== undefined) attrs.input = this.capture(unwrapChainValues(kwargs.inputs, 'input'));
      this.fail(run, err, attrs);
    });
  }

  // Models

  override handleChatModelStart(
    llm: Serialized,
    messages: BaseMessage[][],
    runId: string,
    parentRunId?: string,
    extraParams?: Dict,
    tags?: string[],
    metadata?: Dict,
    name?: string,
  ): void {
    this.guard('handleChatModelStart', () => {
      const run = this.started(runId, parentRunId, 'llm', llm, name);
      if (!run) return;
      const input = (messages.length === 1 ? messages[0]! : messages.flat()).map((m) => toPlainMessage(m));
      this.openGeneration(run, input, extraParams, metadata, tags);
    });
  }

  override handleLLMStart(
    llm: Serialized,
    prompts: string[],
    runId: string,
    parentRunId?: string,
    extraParams?: Dict,
    tags?: string[],
    metadata?: Dict,
    name?: string,
  ): void {
    this.guard('handleLLMStart', () => {
      const run = this.started(runId, parentRunId, 'llm', llm, name);
      if (!run) return;
      this.openGeneration(run, prompts.length === 1 ? prompts[0] : prompts, extraParams, metadata, tags);
    });
  }

  override handleLLMNewToken(token: string, _idx: unknown, runId: string): void {
    this.guard('handleLLMNewToken', () => {
      const run = this.tracker.get(runId);
      if (!run) return;
      const t = run.tree.now();
      run.firstTokenAt ??= t;
      run.tree.lastActivity = t;
      if (token) (run.tokens ??= new TextCapture(MAX_PARTIAL_OUTPUT_CHARS)).push(token);
    });
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    this.guard('handleLLMEnd', () => {
      const run = this.tracker.get(runId);
      if (!run?.obs) return;
      const g = generationEnd(output);
      const attrs: ObsObservationAttributes = { output: this.capture(g.output) };
      if (g.usageDetails) attrs.usageDetails = g.usageDetails;
      if (run.firstTokenAt !== undefined) attrs.completionStartTime = new Date(run.firstTokenAt);
      let meta: Dict | undefined;
      if (g.model && g.model !== run.requestedModel) {
        attrs.model = g.model;
        if (run.requestedModel) (meta ??= {})['requested_model'] = run.requestedModel;
      }
      if (g.finishReason) (meta ??= {})['finish_reason'] = g.finishReason;
      if (meta) attrs.metadata = this.mask(meta);
      run.tokens = undefined;
      this.close(run, attrs);
    });
  }

  override handleLLMError(err: unknown, runId: string): void {
    this.guard('handleLLMError', () => {
      const run = this.tracker.get(runId);
      if (!run?.obs) return;
      this.fail(run, err, run.firstTokenAt !== undefined ? { completionStartTime: new Date(run.firstTokenAt) } : {});
    });
  }

  // Tools and retrievers

  override handleToolStart(
    tool: Serialized,
    input: string,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Dict,
    name?: string,
    toolCallId?: string,
  ): void {
    this.guard('handleToolStart', () => {
      const run = this.started(runId, parentRunId, 'tool', tool, name);
      if (!run) return;
      const meta = toolCallId ? { ...metadata, tool_call_id: toolCallId } : metadata;
      this.open(run, 'tool', meta, tags, { input: this.capture(parseToolInput(input)) });
    });
  }

  override handleToolEnd(output: unknown, runId: string): void {
    this.guard('handleToolEnd', () => {
      const run = this.tracker.get(runId);
      if (run?.obs) this.close(run, { output: this.capture(toPlain(output)) });
    });
  }

  override handleToolError(err: unknown, runId: string): void {
    this.guard('handleToolError', () => {
      const run = this.tracker.get(runId);
      if (run?.obs) this.fail(run, err, {});
    });
  }

  override handleRetrieverStart(
    retriever: Serialized,
    query: string,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Dict,
    name?: string,
  ): void {
    this.guard('handleRetrieverStart', () => {
      const run = this.started(runId, parentRunId, 'retriever', retriever, name);
      if (run) this.open(run, 'retriever', metadata, tags, { input: this.capture(query) });
    });
  }

  override handleRetrieverEnd(documents: DocumentInterface[], runId: string): void {
    this.guard('handleRetrieverEnd', () => {
      const run = this.tracker.get(runId);
      if (!run?.obs) return;
      const docs = Array.isArray(documents) ? documents.map((d) => toPlainDocument(d as unknown as Dict)) : toPlain(documents);
      this.close(run, { output: this.capture(docs) });
    });
  }

  override handleRetrieverError(err: unknown, runId: string): void {
    this.guard('handleRetrieverError', () => {
      const run = this.tracker.get(runId);
      if (run?.obs) this.fail(run, err, {});
    });
  }

  // Agents and events. An agent action carries its chain's run id: the chain becomes an `agent`
  // observation and each action an event under it, so nothing keyed by run id is replaced.

  override handleAgentAction(action: AgentAction, runId: string): void {
    this.guard('handleAgentAction', () => this.agentEvent(runId, `agent action: ${action.tool}`, 'input', action.toolInput, action.log));
  }

  override handleAgentEnd(action: AgentFinish, runId: string): void {
    this.guard('handleAgentEnd', () => this.agentEvent(runId, 'agent finish', 'output', action.returnValues, action.log));
  }

  override handleCustomEvent(eventName: string, data: unknown, runId: string): void {
    this.guard('handleCustomEvent', () => {
      const run = this.tracker.get(runId);
      const ctx = run?.childContext();
      if (run && ctx) this.event(run, ctx, eventName, { input: this.capture(toPlain(data)) });
    });
  }

  // Internals

  private reserve(runId: string, parentRunId: string | undefined, kind: RunKind, serialized: unknown, name: string | undefined): void {
    // Inline, the start callback runs right after this hook, in the same call and context.
    if (this.awaitHandlers) return;
    try {
      this.tracker.reserve(runId, parentRunId, kind, runName(serialized, name, kind));
    } catch (err) {
      logger.debug(`CallbackHandler: could not register run ${runId}: ${String(err)}`);
    }
  }

  /** The run for a start callback, registered now if the synchronous hook did not run; undefined if already started. */
  private started(
    runId: string,
    parentRunId: string | undefined,
    kind: RunKind,
    serialized: unknown,
    name: string | undefined,
  ): RunState | undefined {
    const run = this.tracker.get(runId) ?? this.tracker.reserve(runId, parentRunId, kind, runName(serialized, name, kind));
    return run.obs ? undefined : run;
  }

  private openGeneration(
    run: RunState,
    input: unknown,
    extraParams: Dict | undefined,
    metadata: Dict | undefined,
    tags: string[] | undefined,
  ): void {
    const g = generationStart(input, extraParams, metadata);
    run.requestedModel = g.model;
    let prompt = promptOf(metadata);
    if (!prompt && run.parent?.pendingPrompt) {
      prompt = run.parent.pendingPrompt;
      run.parent.pendingPrompt = undefined;
    }
    this.open(
      run,
      'generation',
      metadata,
      tags,
      {
        input: this.capture(g.input),
        model: g.model,
        modelParameters: redact(g.modelParameters, SECRET_KEYS) as Dict | undefined,
        prompt,
      },
      g.provider,
    );
  }

  /**
   * An `obsPrompt` on a chain that is not a model (typically `prompt.withConfig({ metadata })`)
   * is meant for the model that runs next beside it, under the same parent.
   */
  private registerPromptForSibling(run: RunState, metadata: Dict | undefined): void {
    const prompt = promptOf(metadata);
    if (prompt && run.parent && promptOf(run.parent.metadata)?.name !== prompt.name) run.parent.pendingPrompt = prompt;
  }

  /** Starts the run's observation under its parent run, or for a root under the captured context. */
  private open(
    run: RunState,
    type: ObservationType,
    metadata: Dict | undefined,
    tags: string[] | undefined,
    attrs: ObsObservationAttributes,
    provider?: string,
  ): void {
    run.metadata = metadata;
    run.tags = tags;
    const parent = run.parent;
    const parentCtx = parent
      ? (parent.childContext() ?? this.rootParent(run.tree, parent.metadata, parent.tags))
      : this.rootParent(run.tree, metadata, tags);
    let meta = observationMetadata(metadata, parent?.metadata, tags, parent?.tags);
    if (provider) (meta ??= {})['provider'] = provider;
    if (meta) attrs.metadata = this.mask(redact(meta, SECRET_KEYS));
    if (tags?.includes(HIDDEN_TAG)) attrs.level = 'DEBUG';
    // Attributes are written once, at the end: one conversion and one setAttributes per span.
    run.obs = startObservation(run.name, undefined, { asType: type, startTime: run.startTime, parentContext: parentCtx });
    run.startAttrs = attrs;
    run.parentCtx = parentCtx;
  }

  /** The root's parent context: the captured one plus this handler's (and the run's) trace attributes. */
  private rootParent(tree: RunTree, metadata: Dict | undefined, tags: string[] | undefined): Context {
    if (tree.rootParent) return tree.rootParent;
    const base = this.traceParams;
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
    if (plain && this.plainRootParent) return (tree.rootParent = this.plainRootParent);
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
    if (plain) this.plainRootParent = tree.rootParent;
    return tree.rootParent;
  }

  private close(run: RunState, attrs: ObsObservationAttributes, error?: unknown): void {
    const endTime = run.tree.now();
    const obs = run.obs!;
    obs.update(withStartAttributes(run, attrs));
    if (error !== undefined) obs.recordError(error);
    obs.end(endTime);
    run.tree.lastActivity = endTime;
    this.tracker.ended(run, endTime);
  }

  /** Errors: level ERROR, status message, OTel status and exception event. LangGraph interrupts are not errors. */
  private fail(run: RunState, err: unknown, attrs: ObsObservationAttributes): void {
    const partial = run.tokens && !run.tokens.empty ? run.tokens.text() : undefined;
    run.tokens = undefined;
    if (isGraphBubbleUp(err)) {
      const interrupts = interruptsOf(err);
      attrs.statusMessage = err.name === 'ParentCommand' ? 'handed over to the parent graph' : 'interrupted';
      attrs.metadata = this.mask({ interrupted: true, ...(interrupts ? { interrupts: toPlain(interrupts) } : {}) });
      this.close(run, attrs);
      return;
    }
    if (partial !== undefined) attrs.output = this.capture(partial);
    this.close(run, attrs, err);
  }

  private endAbandoned(run: RunState, reason: string, endTime: number): void {
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
      if (run.tokens && !run.tokens.empty) attrs.output = this.capture(run.tokens.text());
      if (run.firstTokenAt !== undefined) attrs.completionStartTime = new Date(run.firstTokenAt);
      run.tokens = undefined;
      run.obs.update(withStartAttributes(run, attrs)).end(endTime);
    } catch (err) {
      logger.debug(`CallbackHandler: could not end abandoned run ${run.id}: ${String(err)}`);
    }
  }

  /** An agent action or finish: an event under the chain run that reported it, which becomes an `agent`. */
  private agentEvent(runId: string, name: string, key: 'input' | 'output', value: unknown, log: string | undefined): void {
    const run = this.tracker.get(runId);
    const ctx = run?.childContext();
    if (!run || !ctx) return;
    if (!run.isAgent) {
      run.isAgent = true;
      run.obs!.otelSpan.setAttribute(ObsAttributes.OBSERVATION_TYPE, 'agent');
    }
    this.event(run, ctx, name, { [key]: this.capture(toPlain(value)), metadata: log ? this.mask({ log }) : undefined });
  }

  /** An event under a run; a callback like any other, so it keeps the run tree from being abandoned. */
  private event(run: RunState, parent: Context, name: string, attrs: ObsObservationAttributes): void {
    this.tracker.touch(run);
    startObservation(name, attrs, { asType: 'event', startTime: run.tree.now(), parentContext: parent });
  }

  private mask(data: unknown): unknown {
    return maskValue(this.options.mask, data);
  }

  /**
   * An input or output as written: masked, then serialised now, at the callback (LangChain may
   * mutate the value before the run ends, when attributes are written).
   */
  private capture(data: unknown): string | undefined {
    return toAttributeString(this.mask(data));
  }

  /** Instrumentation never throws into the application. */
  private guard(hook: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      const message = `CallbackHandler.${hook} failed: ${err instanceof Error ? err.message : String(err)}`;
      logger.warnOnce(`langchain-${hook}`, `${message} (further failures of ${hook} are logged at debug level)`);
      logger.debug(message);
    }
  }
}
