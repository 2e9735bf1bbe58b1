/**
 * What the span pipeline looks for in its exporter beyond OpenTelemetry's `SpanExporter`, named
 * instead of checked by class: taking batches encoded span by span as the spans end (so no span
 * object waits for its batch), and batches held where a drain can count them, give them a last
 * try and drop them at a deadline. obs's OTLP exporter has both; any other exporter gets span
 * objects in batches, as OpenTelemetry's `BatchSpanProcessor` hands them over, and a flush the
 * processor bounds from outside.
 */
import type { ExportResult, ReadableSpan, SpanExporter } from '../../tracing/sdk-types.js';
import type { DeliveryKind } from '../../delivery/drain.js';

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

/** The drain side of an exporter that holds its batches itself until they are answered (obs's OTLP exporter): a delivery kind's. */
export type ExporterDelivery = Omit<DeliveryKind, 'unit' | 'quiet'>;

/** An exporter whose batches a drain can count, give a last try and abandon at a deadline. */
export interface DeliveringExporter extends SpanExporter {
  readonly delivery: ExporterDelivery;
}

/** Whether `exporter` holds its batches where a drain can see them. */
export function isDeliveringExporter(exporter: SpanExporter): exporter is DeliveringExporter {
  const d = (exporter as Partial<DeliveringExporter>).delivery;
  return typeof d === 'object' && d !== null && typeof d.abandon === 'function';
}
