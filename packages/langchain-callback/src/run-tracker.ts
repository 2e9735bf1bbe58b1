/**
 * Per-run state of the handler, and the guarantee that none of it outlives its tree: a tree is
 * forgotten once its root and every run under it have ended (runs that end or start after the
 * root are normal: a branch still running when a sibling failed, a side chain nobody awaited).
 * A tree nobody finishes (an abandoned stream) is ended as abandoned once its root run or the
 * observation that enclosed its invocation has ended and the tree had no callback for
 * `abandonAfterParentEndMs`, after `abandonAfterMs` without callbacks in any case, or when
 * `maxOpenRuns` is exceeded.
 */
import { context, trace, type Context, type Span } from '@opentelemetry/api';
import type { ObsObservation, ObsObservationAttributes } from '@obs/core';
import { type Dict, TextCapture } from '@obs/core/kit';
import { anchorClock, readClock } from './clock.js';
import type { RunKind } from './run-kind.js';

/** Most streamed text kept per run, to record a partial output when a run does not end normally. */
const MAX_PARTIAL_OUTPUT_CHARS = 64 * 1024;

/** One LangChain run being traced. */
export class RunState {
  /** Its observation, once the start callback was handled. */
  obs: ObsObservation | undefined;
  /** What the start callback captured, written with the end attributes. */
  startAttrs: ObsObservationAttributes | undefined;
  /** The context it was started in (its parent's span, its tree's trace attributes). */
  parentCtx: Context | undefined;
  private ctx: Context | undefined;
  metadata: Dict | undefined;
  tags: string[] | undefined;
  /** Streamed text, kept only to record what was produced when the run does not end normally. */
  tokens: TextCapture | undefined;
  firstTokenAt: number | undefined;
  requestedModel: string | undefined;
  /** Streaming chains get their input with the end callback. */
  deferredInput = false;
  isAgent = false;
  /** An `obsPrompt` set on a child (a prompt template), for the next generation under this run. */
  pendingPrompt: { name: string; version: number } | undefined;
  /** Its end was handled; kept until its tree is done so late children find their parent. */
  done = false;

  constructor(
    readonly id: string,
    readonly tree: RunTree,
    readonly parent: RunState | undefined,
    /** When LangChain started the run (not when a background callback was processed). */
    readonly startTime: number,
    readonly kind: RunKind,
    public name: string,
  ) {}

  /** A streamed token: the first-token time, activity of its tree, and the text kept for a partial output. */
  streamed(token: unknown): void {
    const t = this.tree.now();
    this.firstTokenAt ??= t;
    this.tree.lastActivity = t;
    if (typeof token === 'string' && token) (this.tokens ??= new TextCapture(MAX_PARTIAL_OUTPUT_CHARS)).push(token);
  }

  /** The context its children start in (made on first use: most runs have no children). */
  childContext(): Context | undefined {
    if (this.ctx) return this.ctx;
    if (!this.obs || !this.parentCtx) return undefined;
    return (this.ctx = trace.setSpan(this.parentCtx, this.obs.otelSpan));
  }
}

/** The runs under one root run, and the context the root was started in. */
export class RunTree {
  /** Runs of this tree not ended yet. */
  open = 0;
  root!: RunState;
  /** Every run of the tree, ended or not (forgotten together when the tree is done). */
  readonly members: RunState[] = [];
  /** Parent context of the root observation (captured context plus trace attributes), once computed. */
  rootParent: Context | undefined;

  /** The tree's clock (see clock.ts). */
  readonly clock = anchorClock();
  lastActivity: number;

  constructor(
    /** The OpenTelemetry context active where the root run started (e.g. a request's). */
    readonly captured: Context,
  ) {
    this.lastActivity = readClock(this.clock);
  }

  /** Now, on this tree's clock. */
  now(): number {
    return readClock(this.clock);
  }
}

/** When run trees are abandoned (the handler's options of the same names). */
export interface RunLimits {
  abandonAfterMs: number;
  /** Idle time after the enclosing observation ended before a tree whose root is open is abandoned. */
  abandonAfterParentEndMs: number;
  maxOpenRuns: number;
}

export interface RunTrackerOptions extends RunLimits {
  /** Ends an abandoned run's observation (creating it first if its start was never handled). */
  onAbandon: (run: RunState, reason: string, endTime: number) => void;
}

export class RunTracker {
  readonly runs = new Map<string, RunState>();
  /** Open trees, oldest first (a Set keeps insertion order). */
  readonly trees = new Set<RunTree>();
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private readonly sweepEveryMs: number;

  constructor(private readonly options: RunTrackerOptions) {
    this.sweepEveryMs = Math.max(5, Math.min(1_000, Math.floor(Math.min(options.abandonAfterMs, options.abandonAfterParentEndMs) / 4)));
  }

  /**
   * Registers a run where LangChain starts it. Called synchronously in the invoking code's async
   * context, so the root captures the context (request span, propagated attributes) of *its*
   * invocation even when callbacks are processed later on LangChain's shared queue.
   */
  reserve(runId: string, parentRunId: string | undefined, kind: RunKind, name: string): RunState {
    const existing = this.runs.get(runId);
    if (existing) return existing;
    // The parent may have ended already (a late start): it is kept until its tree is done.
    const parent = parentRunId === undefined ? undefined : this.runs.get(parentRunId);
    let tree: RunTree;
    if (parent) tree = parent.tree;
    else {
      tree = new RunTree(context.active());
      this.trees.add(tree);
      this.sweeper ??= this.startSweeper();
    }
    const t = tree.now();
    const run = new RunState(runId, tree, parent, t, kind, name);
    if (!parent) tree.root = run;
    tree.members.push(run);
    tree.open++;
    tree.lastActivity = t;
    this.runs.set(runId, run);
    if (this.runs.size > this.options.maxOpenRuns) this.evictOldest(tree);
    return run;
  }

  /** The open run with this id (not one that has ended). */
  get(runId: string): RunState | undefined {
    const run = this.runs.get(runId);
    return run && !run.done ? run : undefined;
  }

  /** Marks a run's tree active (starts and ends do it themselves). */
  touch(run: RunState): void {
    run.tree.lastActivity = run.tree.now();
  }

  /**
   * Marks a run ended (an end is activity of its tree). Its tree is forgotten once its root and every run under it have ended;
   * until then ended runs stay addressable as parents of late starts.
   */
  ended(run: RunState, endTime: number): void {
    run.tree.lastActivity = endTime;
    if (run.done || this.runs.get(run.id) !== run) return;
    run.done = true;
    const tree = run.tree;
    tree.open--;
    if (tree.open === 0 && tree.root.done) this.forget(tree);
  }

  /**
   * Ends every tree idle for `abandonAfterMs`, and every tree idle for `abandonAfterParentEndMs`
   * after its root run or the observation that enclosed its invocation ended (a stream the
   * consumer stopped reading: LangChain sends no end callback for it).
   */
  sweep(): void {
    const grace = this.options.abandonAfterParentEndMs;
    for (const tree of this.trees) {
      const idle = tree.now() - tree.lastActivity;
      if (idle >= this.options.abandonAfterMs) {
        this.abandon(tree, `no LangChain callback for ${formatDuration(this.options.abandonAfterMs)}`, tree.lastActivity);
      } else if (idle >= grace && tree.root.done) {
        this.abandon(tree, `its root run ended and it had no callback for ${formatDuration(grace)}`, tree.lastActivity);
      } else if (idle >= grace && enclosingEnded(tree.captured)) {
        this.abandon(tree, `the observation that enclosed it ended and it had no callback for ${formatDuration(grace)}`, tree.lastActivity);
      }
    }
    if (this.trees.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /** Runs of trees not done yet (0 when nothing is in flight). */
  get openRuns(): number {
    return this.runs.size;
  }

  private evictOldest(current: RunTree): void {
    for (const tree of this.trees) {
      if (tree === current) continue;
      this.abandon(tree, `more than ${this.options.maxOpenRuns} runs were open`, tree.lastActivity);
      return;
    }
  }

  /** Ends a tree's open runs as abandoned and forgets the tree. */
  private abandon(tree: RunTree, reason: string, endTime: number): void {
    const open = tree.members.filter((run) => !run.done);
    this.forget(tree);
    for (const run of open) {
      run.done = true;
      this.options.onAbandon(run, reason, Math.max(endTime, run.startTime));
    }
  }

  private forget(tree: RunTree): void {
    this.trees.delete(tree);
    tree.open = 0;
    for (const run of tree.members) if (this.runs.get(run.id) === run) this.runs.delete(run.id);
    tree.members.length = 0;
  }

  private startSweeper(): ReturnType<typeof setInterval> {
    const timer = setInterval(() => this.sweep(), this.sweepEveryMs);
    // Open runs must never keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }
}

/** Whether the span active where the tree's root was invoked (a request, an observation) has ended. */
function enclosingEnded(captured: Context): boolean {
  const span = trace.getSpan(captured) as (Span & { ended?: boolean }) | undefined;
  if (!span) return false;
  return typeof span.ended === 'boolean' ? span.ended : !span.isRecording();
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}
