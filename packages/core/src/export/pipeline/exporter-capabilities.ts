/**
 * What the span pipeline looks for in its exporter beyond OpenTelemetry's `SpanExporter`, named
 * instead of checked by class: taking batches encoded span by span as the spans end (so no span
 * object waits for its batch), and a flush that gives up at a deadline on its own. obs's OTLP
 * exporter has both; any other exporter gets span objects in batches, as OpenTelemetry's
 * `BatchSpanProcessor` hands them over, and a flush the processor bounds from outside.
 */
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** A batch being encoded: spans go in one by one and are serialised as they are added. */
export interface SpanBatchEncoder {
  /** Spans added so far. */
  readonly count: number;
  /** Serialises one span into the batch; throws only on an internal inconsistency. */
  add(span: ReadableSpan): void;
}

/** An exporter that takes batches encoded span by span (see `isEncodedExporter`). */
export interface EncodedExporter<B extends SpanBatchEncoder = SpanBatchEncoder> extends SpanExporter {
  /** A new, empty batch to encode ended spans into. */
  startBatch(): B;
  /** Takes a batch that `startBatch` gave, as `export` takes span objects. */
  exportEncoded(batch: B, resultCallback: (result: ExportResult) => void): void;
}

/** Whether `exporter` takes encoded batches. */
export function isEncodedExporter(exporter: SpanExporter): exporter is EncodedExporter {
  const e = exporter as Partial<EncodedExporter>;
  return typeof e.startBatch === 'function' && typeof e.exportEncoded === 'function';
}

/** An exporter whose flush gives up on what is left after a deadline, and reports it. */
export interface BoundedFlushExporter extends SpanExporter {
  /** Delivers what it can within `timeoutMs`, then abandons the rest (one log line). */
  flushWithin(timeoutMs: number): Promise<void>;
}

/** Whether `exporter` bounds its own flush. */
export function hasBoundedFlush(exporter: SpanExporter): exporter is BoundedFlushExporter {
  return typeof (exporter as Partial<BoundedFlushExporter>).flushWithin === 'function';
}
