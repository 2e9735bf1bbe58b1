/**
 * Values the tracing API cannot read (null-prototype names, throwing `toString` or getters,
 * revoked Proxies such as Immer drafts) become placeholders, with one warning per process:
 * the tracing API never throws into the app.
 */
import type { Attributes, Span } from '@opentelemetry/api';
import { ObsAttributes, type ObservationType } from './attributes.js';
import { moveCapturedBinaries } from './media-capture.js';
import { truncateText } from '../util/capture.js';
import { describeBinaryObject, reasonOf, safeStringify, unserialisable, warnUnreadableOnce } from '../util/serialize.js';
import { toSpanAttributes, writeSpanAttributes, type ObsObservationAttributes } from './observation-attributes.js';

/** One warning per process for all unreadable values. */
export function warnUnreadable(what: string, err: unknown): void {
  warnUnreadableOnce(`${what}: ${reasonOf(err)}`);
}

/** Longest name made from a value that is not a string. */
const NAME_FALLBACK_MAX = 200;

/**
 * A readable name for any value: a string as it is; a number, boolean or BigInt as text; a
 * symbol or function by its name; an object by its own `toString` when it has one, else by its
 * JSON (`{}` stays `{}`, never `[object Object]`), cut at 200 characters; a placeholder when it
 * cannot be read at all.
 */
export function safeName(name: unknown): string {
  if (typeof name === 'string') return name;
  try {
    switch (typeof name) {
      case 'symbol':
        return name.toString();
      case 'function':
        return (typeof name.name === 'string' && name.name) || 'anonymous function';
      case 'object':
        if (name === null) return 'null';
        // Binary data by its size, never decoded (a Buffer's toString reads every byte).
        return (
          describeBinaryObject(name) ??
          truncateText(hasOwnToString(name) ? String(name) : safeStringify(name, 2 * NAME_FALLBACK_MAX), NAME_FALLBACK_MAX)
        );
      default:
        return String(name);
    }
  } catch (err) {
    warnUnreadable('name', err);
    return unserialisable(reasonOf(err));
  }
}

/** Whether `value` has a `toString` of its own kind (a class, a URL), not Object's or Array's. */
function hasOwnToString(value: object): boolean {
  const own = (value as { toString?: unknown }).toString;
  return typeof own === 'function' && own !== Object.prototype.toString && own !== Array.prototype.toString;
}

/** A plain copy of an options object, or `undefined` when it is missing or unreadable. */
export function safeOptions<T extends object>(options: T | null | undefined, what: string): T | undefined {
  if (options === undefined || options === null) return undefined;
  try {
    if (typeof options !== 'object') throw new TypeError(`expected an object, got ${typeof options}`);
    // Options are a few named fields: an array or binary data holds none (and spreading a 20 MB
    // Buffer copies twenty million properties).
    if (Array.isArray(options) || describeBinaryObject(options) !== undefined) return undefined;
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
      const field = toSpanAttributes({ [key]: (attrs as Record<string, unknown>)[key] });
      Object.assign(out, field);
      // Its binary data goes with the attributes (and from them to the span).
      moveCapturedBinaries(field, out);
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
    const safe = safeSpanAttributes(attrs, type);
    span.setAttributes(safe);
    moveCapturedBinaries(safe, span);
  }
}
