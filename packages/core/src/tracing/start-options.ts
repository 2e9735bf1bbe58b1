/** The options of `startObservation` and `startActiveObservation`, apart so observations can name them. */
import type { Context, SpanContext, TimeInput } from '@opentelemetry/api';
import type { ObservationType } from './attributes.js';

/** Options of `startObservation`. */
export interface StartObservationOptions {
  /** Observation type; default `span`. */
  asType?: ObservationType;
  /** Parent to attach to instead of the active span (e.g. from another process). */
  parentSpanContext?: SpanContext;
  /**
   * Context to start in instead of the active one: its span is the parent and its propagated
   * attributes apply (for work recorded later than it ran, e.g. queued callbacks).
   */
  parentContext?: Context;
  startTime?: TimeInput;
}

/** Options of `startActiveObservation`. */
export interface StartActiveObservationOptions extends StartObservationOptions {
  /** End the observation when `fn` returns or its Promise settles; default true. */
  endOnExit?: boolean;
}
