/**
 * The OpenTelemetry SDK's span-processing shapes (`ReadableSpan`, `SpanProcessor`, `SpanExporter`,
 * `ExportResult`), declared here so `@obs/core` depends on `@opentelemetry/api` alone: SDK 2.x
 * (`@opentelemetry/sdk-trace-base`) and 3.x (`@opentelemetry/sdk-trace`) declare the same shapes,
 * each line pinned to its own API range, so obs cannot depend on either. Structural: the SDK's
 * spans, processors and exporters of both lines fit them, and obs's fit the SDK's.
 */
import type { Attributes, Context, HrTime, Link, Span, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api';

/** A span's event, as the SDK records it. */
export interface TimedEvent {
  time: HrTime;
  name: string;
  attributes?: Attributes;
  droppedAttributesCount?: number;
}

/** The resource of a span: what the SDK's `Resource` offers an exporter. */
export interface SpanResource {
  readonly attributes: Attributes;
  readonly asyncAttributesPending?: boolean;
  readonly schemaUrl?: string;
  waitForAsyncAttributes?(): Promise<void>;
}

/** The instrumentation scope (library) that started a span. */
export interface InstrumentationScope {
  readonly name: string;
  readonly version?: string;
  readonly schemaUrl?: string;
}

/** An ended span as span processors and exporters read it (the SDK's `ReadableSpan`). */
export interface ReadableSpan {
  readonly name: string;
  readonly kind: SpanKind;
  readonly spanContext: () => SpanContext;
  readonly parentSpanContext?: SpanContext;
  readonly startTime: HrTime;
  readonly endTime: HrTime;
  readonly status: SpanStatus;
  readonly attributes: Attributes;
  readonly links: Link[];
  readonly events: TimedEvent[];
  readonly duration: HrTime;
  readonly ended: boolean;
  readonly resource: SpanResource;
  readonly instrumentationScope: InstrumentationScope;
  readonly droppedAttributesCount: number;
  readonly droppedEventsCount: number;
  readonly droppedLinksCount: number;
}

/** A started span as `onStart` gets it: the API span, readable. */
export type SdkSpan = Span & ReadableSpan;

/** The SDK's span processor hooks. */
export interface SpanProcessor {
  forceFlush(): Promise<void>;
  onStart(span: SdkSpan, parentContext: Context): void;
  onEnding?(span: SdkSpan): void;
  onEnd(span: ReadableSpan): void;
  shutdown(): Promise<void>;
}

/** The SDK's `ExportResultCode` values. */
export const ExportResultCode = { SUCCESS: 0, FAILED: 1 } as const;

/** What an exporter reports for one `export` call. */
export interface ExportResult {
  code: number;
  error?: Error;
}

/** The SDK's span exporter. */
export interface SpanExporter {
  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}
