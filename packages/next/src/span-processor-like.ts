import type { Context } from '@opentelemetry/api';

/** Minimal OpenTelemetry `SpanProcessor` shape, so this package needs no SDK dependency. */
export interface SpanProcessorLike {
  onStart(span: object, parentContext: Context): void;
  onEnd(span: object): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}
