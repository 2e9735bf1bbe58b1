/**
 * Values the tracing API cannot read (null-prototype names, throwing `toString` or getters,
 * revoked Proxies such as Immer drafts) become placeholders, with one warning per process:
 * the tracing API never throws into the app.
 */
import type { Attributes, Span } from '@opentelemetry/api';
import { ObsAttributes, type ObservationType } from './attributes.js';
import { logger } from '../util/logger.js';
import { toSpanAttributes, writeSpanAttributes, type ObsObservationAttributes } from './observation-attributes.js';

/** What an unreadable value is recorded as. */
export function unserialisable(reason: string): string {
  return `[unserialisable: ${reason}]`;
}

/** The message of `err`, never throwing. */
export function reasonOf(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'unreadable error';
  }
}

/** One warning per process for all unreadable values. */
export function warnUnreadable(what: string, err: unknown): void {
  logger.warnOnce(
    'unreadable-value',
    `a value given to obs could not be read (${what}: ${reasonOf(err)}); it is recorded as a placeholder. Further such values are not logged.`,
  );
}

/** `String(name)`, or a placeholder when the name cannot become a string. */
export function safeName(name: unknown): string {
  if (typeof name === 'string') return name;
  try {
    return String(name);
  } catch (err) {
    warnUnreadable('name', err);
    return unserialisable(reasonOf(err));
  }
}

/** A plain copy of an options object, or `undefined` when it is missing or unreadable. */
export function safeOptions<T extends object>(options: T | null | undefined, what: string): T | undefined {
  if (options === undefined || options === null) return undefined;
  try {
    if (typeof options !== 'object') throw new TypeError(`expected an object, got ${typeof options}`);
    return { ...options };
  } catch (err) {
    warnUnreadable(what, err);
    return undefined;
  }
}

const FIELD_KEYS: Record<string, string | undefined> = {
  input: ObsAttributes.OBSERVATION_INPUT,
  output: ObsAttributes.OBSERVATION_OUTPUT,
  metadata: ObsAttributes.OBSERVATION_METADATA,
};

/**
 * `toSpanAttributes`, field by field when the whole object cannot be read: a field that throws
 * is recorded as a placeholder (input, output, metadata) or left out.
 */
export function safeSpanAttributes(attrs: ObsObservationAttributes | undefined, type?: ObservationType): Attributes {
  try {
    return toSpanAttributes(attrs ?? {}, type);
  } catch (err) {
    warnUnreadable('attributes', err);
  }
  const out: Attributes = type ? toSpanAttributes({}, type) : {};
  let keys: string[];
  try {
    keys = Object.keys(attrs as object);
  } catch (err) {
    out[ObsAttributes.OBSERVATION_INPUT] = unserialisable(reasonOf(err));
    return out;
  }
  for (const key of keys) {
    try {
      Object.assign(out, toSpanAttributes({ [key]: (attrs as Record<string, unknown>)[key] }));
    } catch (err) {
      const attr = FIELD_KEYS[key];
      if (attr) out[attr] = unserialisable(reasonOf(err));
    }
  }
  return out;
}

/**
 * `safeSpanAttributes` set on `span`: written straight into it, and again through
 * `safeSpanAttributes` (placeholders, one warning) only when a value cannot be read.
 */
export function setSpanAttributes(span: Span, attrs: ObsObservationAttributes | undefined, type?: ObservationType): void {
  try {
    writeSpanAttributes(attrs ?? {}, span, type);
  } catch {
    span.setAttributes(safeSpanAttributes(attrs, type));
  }
}
