/**
 * `ObsTraceProcessor`: the Agents SDK's trace and span events as obs observations, started and
 * ended as the SDK reports them. An SDK trace is one observation (named after the workflow)
 * started in the context that was active where the run began, so a run inside an Express request
 * or a `startActiveObservation` joins that trace and one outside is a trace of its own; each SDK
 * span is an observation under its parent's (see span-kinds.ts for names and types).
 *
 * Lifetimes are bounded: a trace the SDK never ends (a run that threw: the SDK ends its top-level
 * span with the error but calls no `onTraceEnd`) is ended with that span; past `MAX_OPEN_TRACES`
 * the oldest open trace is ended with a WARNING. A run resumed after an interruption (human in the
 * loop) reports more spans of a trace that already ended: they join it under its ended root.
 */
import { type Context, context } from '@opentelemetry/api';
import { getObsHandle, initObs, type ObsObservation, startObservation } from '@obs/core';
import { activeContextFor, AdapterGuard, contextWithAttributes, dict, isDict, recordErrorOnSpan } from '@obs/core/kit';
import type { Span, SpanData, Trace, TracingProcessor } from '@openai/agents';
import type { ModelCallFields } from './model-call.js';
import { spanEnd, spanStart } from './span-kinds.js';

/** Processors the SDK shut down (at exit, or replaced by `setTraceProcessors`). */
const SHUT_DOWN = new WeakSet<object>();

/** Whether the SDK shut `processor` down: it may no longer be among the SDK's processors. */
export function wasShutDown(processor: object): boolean {
  return SHUT_DOWN.has(processor);
}

/** Any span of the SDK. */
type AgentSpan = Span<SpanData>;

/** Traces in flight at once; past it the oldest is ended (a run that never reported its end). */
const MAX_OPEN_TRACES = 1000;
/** Ended traces remembered so that a resumed run's spans join them. */
const MAX_ENDED_TRACES = 1000;

/** An observation in flight, or a folded span (`task`, `turn`) that stands for its parent. */
interface Node {
  observation?: ObsObservation;
  /** The context children start in: this observation active, the trace's attributes on. */
  context: Context;
  /** The nearest agent (or the trace root) that a model call's input and output are lifted to. */
  owner?: Lifted;
}

/** An agent or trace root: the first model call's input and the last one's output, for readers. */
interface Lifted {
  observation: ObsObservation;
  input?: unknown;
  output?: unknown;
  /** Ended: a resumed run's spans hang under it, nothing is written to it any more. */
  ended?: boolean;
}

interface TraceState {
  root: Lifted;
  context: Context;
  nodes: Map<string, Node>;
  /** More spans of a trace that had ended (a run resumed after an interruption). */
  resumed?: boolean;
}

/**
 * A tracing processor for `@openai/agents` that records agent runs into obs. `observeOpenAIAgents()`
 * adds one with `addTraceProcessor`; an app that sets its processors itself passes one to
 * `setTraceProcessors([...yours, new ObsTraceProcessor()])`. It never throws into the SDK.
 */
export class ObsTraceProcessor implements TracingProcessor {
  private readonly open = new Map<string, TraceState>();
  private readonly ended = new Map<string, TraceState>();
  /** @internal Every processor method runs in it; so does adding the processor. */
  readonly guard = new AdapterGuard('@obs/openai-agents');

  async onTraceStart(trace: Trace): Promise<void> {
    this.guard.run(() => this.startTrace(trace));
  }

  async onTraceEnd(trace: Trace): Promise<void> {
    this.guard.run(() => this.endTrace(trace.traceId));
  }

  async onSpanStart(span: AgentSpan): Promise<void> {
    this.guard.run(() => this.startSpan(span));
  }

  async onSpanEnd(span: AgentSpan): Promise<void> {
    this.guard.run(() => this.endSpan(span));
  }

  /**
   * Ends what is still open; obs's own exit flush sends it. The SDK calls it at exit and when
   * `setTraceProcessors` replaces the processors (then `observeOpenAIAgents()` adds a new one).
   */
  async shutdown(): Promise<void> {
    SHUT_DOWN.add(this);
    this.guard.run(() => {
      for (const traceId of [...this.open.keys()]) this.endTrace(traceId, 'the SDK shut tracing down before the run ended');
    });
  }

  /** Sends what obs holds: the SDK's `getGlobalTraceProvider().forceFlush()` flushes obs too. */
  async forceFlush(): Promise<void> {
    await getObsHandle()?.flush();
  }

  /** Runs in flight (diagnostics; 0 when nothing is). */
  get openTraces(): number {
    return this.open.size;
  }

  private startTrace(trace: Trace): void {
    getObsHandle() ?? initObs();
    if (this.open.has(trace.traceId)) return;
    if (this.ended.has(trace.traceId)) {
      this.stateOf(trace.traceId);
      return;
    }
    const groupId = trace.groupId;
    // The SDK's group id links the traces of one conversation: obs calls that a session.
    const parent =
      typeof groupId === 'string' && groupId !== ''
        ? contextWithAttributes(context.active(), { sessionId: groupId }, { setOnActiveSpan: false })
        : undefined;
    const metadata = { ...dict(trace.metadata), ...(trace.groupId ? { group_id: trace.groupId } : {}) };
    const root = startObservation(
      trace.name || 'Agent workflow',
      { metadata: Object.keys(metadata).length > 0 ? metadata : undefined },
      { asType: 'agent', parentContext: parent },
    );
    this.open.set(trace.traceId, { root: { observation: root }, context: activeContextFor(root, parent), nodes: new Map() });
    if (this.open.size > MAX_OPEN_TRACES) {
      const oldest = this.open.keys().next().value as string;
      this.endTrace(oldest, 'the run never ended (more than 1000 runs in flight)');
    }
  }

  private endTrace(traceId: string, unfinished?: string): void {
    const state = this.open.get(traceId);
    if (!state) return;
    this.open.delete(traceId);
    // Spans the SDK left open (an interrupted run, a stream nobody read to its end) end with it.
    for (const node of state.nodes.values()) {
      node.observation?.update({ level: 'WARNING', statusMessage: unfinished ?? 'the run ended before this span did' }).end();
    }
    const root = state.root;
    if (!root.ended) {
      writeLifted(root);
      if (unfinished) root.observation.update({ level: 'WARNING', statusMessage: unfinished });
      root.observation.end();
      root.ended = true;
    }
    this.ended.delete(traceId);
    this.ended.set(traceId, { root, context: state.context, nodes: new Map(), resumed: true });
    if (this.ended.size > MAX_ENDED_TRACES) this.ended.delete(this.ended.keys().next().value as string);
  }

  private startSpan(span: AgentSpan): void {
    const data = dict(span.spanData);
    const state = this.stateOf(span.traceId);
    const parent = (span.parentId ? state.nodes.get(span.parentId) : undefined) ?? { context: state.context, owner: state.root };
    const start = spanStart(data);
    if (!start) {
      state.nodes.set(span.spanId, { context: parent.context, owner: parent.owner });
      return;
    }
    const observation = startObservation(start.name, start.attributes, {
      asType: start.type,
      parentContext: parent.context,
      startTime: time(span.startedAt),
    });
    const node: Node = { observation, context: activeContextFor(observation, parent.context), owner: parent.owner };
    if (start.type === 'agent') node.owner = { observation };
    state.nodes.set(span.spanId, node);
  }

  private endSpan(span: AgentSpan): void {
    const state = this.open.get(span.traceId);
    const node = state?.nodes.get(span.spanId);
    if (!state || !node) return;
    state.nodes.delete(span.spanId);
    const error = span.error ? errorText(span.error) : undefined;
    const observation = node.observation;
    if (observation) {
      const data = dict(span.spanData);
      const end = spanEnd(data);
      if (end.name) observation.otelSpan.updateName(end.name);
      observation.update(end.attributes);
      if (data['type'] === 'response' || data['type'] === 'generation') lift(node.owner, state.root, end.attributes as ModelCallFields);
      if (node.owner?.observation === observation) writeLifted(node.owner);
      if (error) recordErrorOnSpan(observation.otelSpan, error);
      observation.end(time(span.endedAt));
    }
    if (span.parentId) return;
    // A run that threw ends its top-level span with the error and never ends its trace; a
    // resumed run never ends it either.
    if (error && !state.root.ended) recordErrorOnSpan(state.root.observation.otelSpan, error);
    if (error || state.resumed) this.endTrace(span.traceId);
  }

  /**
   * The trace's state. A span of a trace that ended is a resumed run's: it joins the trace under
   * the ended root. One of a trace not seen starting (a processor added mid-run) starts one.
   */
  private stateOf(traceId: string): TraceState {
    const state = this.open.get(traceId);
    if (state) return state;
    const ended = this.ended.get(traceId);
    if (ended) {
      this.ended.delete(traceId);
      this.open.set(traceId, ended);
      return ended;
    }
    this.startTrace({ traceId, name: 'Agent workflow', groupId: null, metadata: {} } as unknown as Trace);
    return this.open.get(traceId) as TraceState;
  }
}

/** A model call's input (the first one's, without the system prompt) and output to its agent and the root. */
function lift(owner: Lifted | undefined, root: Lifted, call: ModelCallFields): void {
  const input = Array.isArray(call.input) ? call.input.filter((m) => !(isDict(m) && m['role'] === 'system')) : call.input;
  const output =
    isDict(call.output) && typeof call.output['content'] === 'string' && !call.output['tool_calls'] ? call.output['content'] : call.output;
  for (const target of owner && owner !== root ? [owner, root] : [root]) {
    if (target.ended) continue;
    if (target.input === undefined && input !== undefined) target.input = input;
    if (output !== undefined && output !== '') target.output = output;
  }
}

function writeLifted(target: Lifted): void {
  if (target.input !== undefined || target.output !== undefined) target.observation.update({ input: target.input, output: target.output });
}

function errorText(error: { message?: unknown; data?: unknown }): string {
  const message = typeof error.message === 'string' ? error.message : 'error';
  const data = dict(error.data);
  const detail = typeof data['error'] === 'string' ? data['error'] : Object.keys(data).length > 0 ? JSON.stringify(data) : undefined;
  return detail ? `${message}: ${detail}` : message;
}

function time(iso: string | null | undefined): Date | undefined {
  if (!iso) return undefined;
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? undefined : t;
}
