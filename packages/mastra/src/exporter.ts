/**
 * `ObsExporter`: a Mastra observability exporter that records Mastra's spans as obs observations,
 * started at `span_started` with Mastra's start time and ended at `span_ended` with its end time
 * and what the span says by then (span-kinds.ts: names stay Mastra's, types are obs's). A root
 * span starts in the context active where Mastra reports it: an agent called inside an Express
 * request or a `startActiveObservation` joins that trace. Spans in flight are bounded.
 */
import { type Context, context } from '@opentelemetry/api';
import { getObsHandle, initObs, type ObsObservation, startObservation } from '@obs/core';
import { activeContextFor, AdapterGuard, dict, type Dict } from '@obs/core/kit';
import type { ObservabilityExporter, TracingEvent } from '@mastra/core/observability';
import { FOLDED, inferenceAttributes, observationType, requestedModel, spanAttributes } from './span-kinds.js';

/** Spans in flight at once; past it the oldest is ended with a WARNING (a span Mastra never ended). */
const MAX_OPEN_SPANS = 10_000;

interface Node {
  observation?: ObsObservation;
  context: Context;
  /** For a folded inference span: the step observation it writes onto. */
  step?: ObsObservation;
  /** For a model generation: the model it asked for, which its steps start with. */
  model?: string;
}

/** Options of {@link ObsExporter}. */
export interface ObsExporterOptions {
  /** Leave out streaming chunks and other internal spans Mastra marks internal; default true. */
  skipInternal?: boolean;
}

/**
 * Records Mastra's traces into obs: pass it in the `exporters` of a Mastra observability config.
 * obs starts (`initObs()`) at the first span if the app has not started it.
 *
 * @example
 * ```ts
 * const mastra = new Mastra({
 *   agents: { weatherAgent },
 *   observability: new Observability({ configs: { obs: { serviceName: 'my-app', exporters: [new ObsExporter()] } } }),
 * });
 * ```
 */
export class ObsExporter implements ObservabilityExporter {
  readonly name = 'obs';
  private readonly open = new Map<string, Node>();
  private readonly guard = new AdapterGuard('@obs/mastra');
  private readonly skipInternal: boolean;

  constructor(options: ObsExporterOptions = {}) {
    this.skipInternal = options.skipInternal !== false;
  }

  async exportTracingEvent(event: TracingEvent): Promise<void> {
    this.guard.run(() => this.handle(event));
  }

  /** Sends what obs holds (Mastra's `flush()` for serverless runtimes reaches it). */
  async flush(): Promise<void> {
    await getObsHandle()?.flush();
  }

  /** Ends what is still open; obs's own shutdown sends it. */
  async shutdown(): Promise<void> {
    this.guard.run(() => {
      for (const node of this.open.values())
        node.observation?.update({ level: 'WARNING', statusMessage: 'Mastra shut down before this span ended' }).end();
      this.open.clear();
    });
  }

  /** Spans in flight (diagnostics; 0 when nothing is). */
  get openSpans(): number {
    return this.open.size;
  }

  private handle(event: TracingEvent): void {
    const span = dict(event.exportedSpan);
    const id = span['id'];
    if (typeof id !== 'string') return;
    if (this.skipInternal && span['isInternal'] === true) return;
    if (event.type === 'span_started') this.start(id, span);
    else if (event.type === 'span_updated') this.open.get(id)?.observation?.update(spanAttributes(span));
    else if (event.type === 'span_ended') this.end(id, span);
  }

  private start(id: string, span: Dict): Node | undefined {
    if (this.open.has(id)) return this.open.get(id);
    getObsHandle() ?? initObs();
    const parentId = span['parentSpanId'];
    const parent = typeof parentId === 'string' ? this.open.get(parentId) : undefined;
    const parentContext = parent?.context ?? context.active();
    let node: Node;
    if (FOLDED.has(String(span['type']))) {
      node = { context: parentContext, step: parent?.observation ?? parent?.step };
    } else {
      const attributes = spanAttributes(span);
      // A step's inference span (core >= 1.33) later writes the response's model over this one;
      // before it, the model asked for is all Mastra reports while the step is open.
      if (span['type'] === 'model_step' && parent?.model) attributes.model = parent.model;
      const observation = startObservation(typeof span['name'] === 'string' ? span['name'] : String(span['type']), attributes, {
        asType: observationType(span['type'], span['isEvent'] === true),
        parentContext,
        startTime: time(span['startTime']),
      });
      node = { observation, context: activeContextFor(observation, parentContext), model: requestedModel(span) };
    }
    this.open.set(id, node);
    if (this.open.size > MAX_OPEN_SPANS) {
      const [oldest, stale] = this.open.entries().next().value as [string, Node];
      this.open.delete(oldest);
      stale.observation?.update({ level: 'WARNING', statusMessage: 'Mastra never ended this span' }).end();
    }
    return node;
  }

  private end(id: string, span: Dict): void {
    // An event span (and a span whose start went unreported) arrives ended.
    const node = this.open.get(id) ?? this.start(id, span);
    this.open.delete(id);
    if (!node) return;
    if (span['type'] === 'model_inference') node.step?.update(inferenceAttributes(span));
    if (!node.observation) return;
    node.observation.update(spanAttributes(span));
    node.observation.end(time(span['endTime']) ?? time(span['startTime']));
  }
}

function time(v: unknown): Date | undefined {
  const t = v instanceof Date ? v : typeof v === 'string' || typeof v === 'number' ? new Date(v) : undefined;
  return t && !Number.isNaN(t.getTime()) ? t : undefined;
}
