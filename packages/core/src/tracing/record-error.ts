/** Recording an error on a span the obs way, shared by observations, `observe` and the adapters. */
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { ObsAttributes } from './attributes.js';

/** Level ERROR, status message, OTel status ERROR and an exception event; never throws. */
export function recordErrorOnSpan(span: Span, error: unknown, message?: string): void {
  try {
    const msg = message ?? errorMessage(error);
    span.setAttributes({
      [ObsAttributes.OBSERVATION_LEVEL]: 'ERROR',
      [ObsAttributes.OBSERVATION_STATUS_MESSAGE]: msg,
    });
    span.setStatus({ code: SpanStatusCode.ERROR, message: msg });
    if (error instanceof Error) span.recordException(error);
    else span.recordException({ name: 'Error', message: msg });
  } catch {
    // Recording must never throw into the application.
  }
}

/** A readable message for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
