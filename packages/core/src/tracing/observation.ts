import type { Span, SpanContext, TimeInput } from '@opentelemetry/api';
import { ObsAttributes, type ObservationType } from './attributes.js';
import { logger } from '../util/logger.js';
import type { ObsObservationAttributes } from './observation-attributes.js';
import { setSpanAttributes } from './hostile-input.js';
import { recordErrorOnSpan } from './record-error.js';
import type { StartObservationOptions } from './start-options.js';

type StartChild = (name: string, attributes: ObsObservationAttributes | undefined, options: StartObservationOptions) => ObsObservation;

/**
 * How a child observation is started: `start.ts` provides it when it loads, so that this file
 * does not import the module that imports it (start.ts makes observations; observations make
 * children through it).
 */
let startChild: StartChild | undefined;

/** @internal Called once by start.ts. */
export function provideChildStarter(fn: StartChild): void {
  startChild = fn;
}

/**
 * One observation: an OpenTelemetry span with obs attributes. Returned by `startObservation`
 * and passed to the callbacks of `startActiveObservation` and `observe`.
 */
export class ObsObservation {
  /** The observation (span) id. */
  readonly id: string;
  /** The trace id. */
  readonly traceId: string;

  constructor(
    /** The underlying OpenTelemetry span. */
    readonly otelSpan: Span,
    /** What kind of observation this is. */
    readonly type: ObservationType,
  ) {
    const sc = otelSpan.spanContext();
    this.id = sc.spanId;
    this.traceId = sc.traceId;
  }

  /** Sets input, output, metadata, model fields and so on; unset fields are left as they are. */
  update(attributes: ObsObservationAttributes): this {
    try {
      setSpanAttributes(this.otelSpan, attributes);
    } catch (err) {
      logger.warn(`update() ignored: ${String(err)}`);
    }
    return this;
  }

  /** Ends the observation (idempotent: OTel ignores a second end). */
  end(endTime?: TimeInput): void {
    this.otelSpan.end(endTime);
  }

  /** Makes the whole trace viewable by anyone with its link. */
  setTraceAsPublic(): this {
    this.otelSpan.setAttribute(ObsAttributes.TRACE_PUBLIC, true);
    return this;
  }

  /** Starts a child observation of this one (not made active). */
  startObservation(
    name: string,
    attributes?: ObsObservationAttributes,
    options?: Omit<StartObservationOptions, 'parentSpanContext'>,
  ): ObsObservation {
    return startChild!(name, attributes, { ...options, parentSpanContext: this.otelSpan.spanContext() });
  }

  /** The span context, e.g. to parent work started elsewhere. */
  spanContext(): SpanContext {
    return this.otelSpan.spanContext();
  }

  /** Records an error: level ERROR, status message, OTel status ERROR and an exception event. */
  recordError(error: unknown): this {
    recordErrorOnSpan(this.otelSpan, error);
    return this;
  }
}
