/** The OpenTelemetry span limits, from the same environment variables the SDK reads. */
export interface LightSpanLimits {
  attributeCountLimit: number;
  attributeValueLengthLimit: number;
  eventCountLimit: number;
  linkCountLimit: number;
}

function envLimit(names: string[], fallback: number): number {
  for (const name of names) {
    const raw = globalThis.process?.env?.[name];
    if (raw === undefined || raw.trim() === '') continue;
    const n = Number(raw);
    if (Number.isInteger(n) && n >= 0) return n;
  }
  return fallback;
}

/** Limits as `NodeTracerProvider` applies them by default (span-specific variables win). */
export function spanLimitsFromEnv(): LightSpanLimits {
  return {
    attributeCountLimit: envLimit(['OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT', 'OTEL_ATTRIBUTE_COUNT_LIMIT'], 128),
    attributeValueLengthLimit: envLimit(
      ['OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT', 'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT'],
      Number.POSITIVE_INFINITY,
    ),
    eventCountLimit: envLimit(['OTEL_SPAN_EVENT_COUNT_LIMIT'], 128),
    linkCountLimit: envLimit(['OTEL_SPAN_LINK_COUNT_LIMIT'], 128),
  };
}
