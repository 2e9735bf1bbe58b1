/**
 * Per-run state of the handler, and the guarantee that none of it outlives its run: a run is
 * removed when it ends, the rest of its tree when the root ends, and a tree nobody finishes (an
 * abandoned stream) after `abandonAfterMs` without callbacks or when `maxOpenRuns` is exceeded.
 */
import { context, trace, type Context } from '@opentelemetry/api';
import type { ObsObservation, ObsObservationAttributes, TextCapture } from '@obs/core';
import { anchorClock, readClock } from './clock.js';
import type { RunKind } from './run-kind.js';

type Dict = Record<string, unknown>;

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

  constructor(
    readonly id: string,
    readonly tree: RunTree,
    readonly parent: RunState | undefined,
    /** When LangChain started the run (not when a background callback was processed). */
    readonly startTime: number,
    readonly kind: RunKind,
    public name: string,
  ) {}

  /** The context its children start in (made on first use: most runs have no children). */
  childContext(): Context | undefined {
    if (this.ctx) return this.ctx;
    if (!this.obs || !this.parentCtx) return undefined;
    return (this.ctx = trace.setSpan(this.parentCtx, this.obs.otelSpan));
  }
}

/** The runs under one root run, and the context the root was started in. */
export class RunTree {
  /** Runs of this tree not ended yet (the runs themselves are in the tracker's map). */
  open = 0;
  root!: RunState;
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

export interface RunTrackerOptions {
  abandonAfterMs: number;
  maxOpenRuns: number;
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
    this.sweepEveryMs = Math.max(5, Math.min(60_000, Math.floor(options.abandonAfterMs / 4)));
  }

  /**
   * Registers a run where LangChain starts it. Called synchronously in the invoking code's async
   * context, so the root captures the context (request span, propagated attributes) of *its*
   * invocation even when callbacks are processed later on LangChain's shared queue.
   */
  reserve(runId: string, parentRunId: string | undefined, kind: RunKind, name: string): RunState {
    const existing = this.runs.get(runId);
    if (existing) return existing;
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
    tree.open++;
    tree.lastActivity = t;
    this.runs.set(runId, run);
    if (this.runs.size > this.options.maxOpenRuns) this.evictOldest(tree);
    return run;
  }

  /** The open run with this id. */
  get(runId: string): RunState | undefined {
    return this.runs.get(runId);
  }

  /** Marks a run's tree active (starts and ends do it themselves). */
  touch(run: RunState): void {
    run.tree.lastActivity = run.tree.now();
  }

  /**
   * Forgets an ended run. When it is its tree's root, the runs still open under it never ended
   * (a stream inside it was abandoned): they are ended now, at the root's end time.
   */
  ended(run: RunState, endTime: number): void {
    if (this.runs.get(run.id) !== run) return;
    this.runs.delete(run.id);
    const tree = run.tree;
    tree.open--;
    if (tree.root !== run) return;
    this.trees.delete(tree);
    if (tree.open > 0) this.abandon(tree, 'its root run ended before it', endTime);
  }

  /** Ends every tree without a callback for `abandonAfterMs`. */
  sweep(): void {
    for (const tree of this.trees) {
      if (tree.now() - tree.lastActivity >= this.options.abandonAfterMs) {
        this.trees.delete(tree);
        this.abandon(tree, `no LangChain callback for ${formatDuration(this.options.abandonAfterMs)}`, tree.lastActivity);
      }
    }
    if (this.trees.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /** Runs open right now. */
  get openRuns(): number {
    return this.runs.size;
  }

  private evictOldest(current: RunTree): void {
    for (const tree of this.trees) {
      if (tree === current) continue;
      this.trees.delete(tree);
      this.abandon(tree, `more than ${this.options.maxOpenRuns} runs were open`, tree.lastActivity);
      return;
    }
  }

  /** Ends a tree's open runs. Rare (abandoned streams), so it scans the open runs for them. */
  private abandon(tree: RunTree, reason: string, endTime: number): void {
    const runs: RunState[] = [];
    for (const run of this.runs.values()) if (run.tree === tree) runs.push(run);
    tree.open = 0;
    for (const run of runs) {
      this.runs.delete(run.id);
      this.options.onAbandon(run, reason, Math.max(endTime, run.startTime));
    }
  }

  private startSweeper(): ReturnType<typeof setInterval> {
    const timer = setInterval(() => this.sweep(), this.sweepEveryMs);
    // Open runs must never keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}
