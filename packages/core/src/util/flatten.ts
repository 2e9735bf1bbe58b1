import type { AttributeValue, Attributes } from '@opentelemetry/api';
import { isPlainObject } from './guards.js';
import { MAX_SERIALISED_CHARS, reasonOf, safeStringify, type SerializeHooks, toAttributeString, unserialisable } from './serialize.js';

const MAX_DEPTH = 10;

/** Where attributes are written: a span (its `setAttribute`), or an object through `objectSink`. */
export interface AttributeSink {
  setAttribute(key: string, value: AttributeValue): unknown;
}

/** A sink that writes into `out`. */
export function objectSink(out: Attributes): AttributeSink {
  return {
    setAttribute(key, value) {
      out[key] = value;
    },
  };
}

/**
 * Flattens a value under `prefix` by dotted path (`{a:{b:1}}` -> `prefix.a.b = 1`), keeping
 * numbers and booleans typed, primitive arrays of one type as OTel arrays, and anything else
 * as JSON (wire contract 2.1/2.2, contract 2.6).
 */
export function flattenAttributes(prefix: string, value: unknown, out: Attributes = {}): Attributes {
  walk(prefix, value, objectSink(out), 0);
  return out;
}

/** `flattenAttributes` written into `sink` (a span) instead of an object; `hooks` as `safeStringify` takes them. */
export function flattenInto(prefix: string, value: unknown, sink: AttributeSink, hooks?: SerializeHooks): void {
  walk(prefix, value, sink, 0, hooks);
}

function walk(key: string, value: unknown, out: AttributeSink, depth: number, hooks?: SerializeHooks): void {
  try {
    walkValue(key, value, out, depth, hooks);
  } catch (err) {
    // Unreadable (a revoked Proxy): a placeholder at its key; its siblings are written.
    out.setAttribute(key, unserialisable(reasonOf(err)));
  }
}

function walkValue(key: string, value: unknown, out: AttributeSink, depth: number, hooks: SerializeHooks | undefined): void {
  if (value === undefined || value === null) return;
  const primitive = toPrimitive(value);
  if (primitive !== undefined) {
    out.setAttribute(key, primitive);
    return;
  }
  if (Array.isArray(value)) {
    out.setAttribute(key, homogeneousArray(value) ?? safeStringify(value, MAX_SERIALISED_CHARS, hooks));
    return;
  }
  const keys = typeof value === 'object' && depth < MAX_DEPTH ? plainKeys(value) : undefined;
  if (keys) {
    for (const k of keys) {
      let v: unknown;
      try {
        v = (value as Record<string, unknown>)[k];
      } catch (err) {
        // A getter that throws loses its own key, not its siblings.
        out.setAttribute(`${key}.${k}`, unserialisable(reasonOf(err)));
        continue;
      }
      walk(`${key}.${k}`, v, out, depth + 1, hooks);
    }
    return;
  }
  out.setAttribute(key, toAttributeString(value, hooks) ?? 'null');
}

/** The own keys of a plain object, or undefined for anything else (and for what cannot be read). */
function plainKeys(value: object): string[] | undefined {
  try {
    return isPlainObject(value) ? Object.keys(value) : undefined;
  } catch {
    return undefined;
  }
}

function toPrimitive(value: unknown): string | number | boolean | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return value.toString();
    default:
      return value instanceof Date ? value.toISOString() : undefined;
  }
}

function homogeneousArray(values: unknown[]): AttributeValue | undefined {
  if (values.length === 0) return undefined;
  const kind = typeof values[0];
  if (kind !== 'string' && kind !== 'number' && kind !== 'boolean') return undefined;
  for (const v of values) if (typeof v !== kind || (kind === 'number' && !Number.isFinite(v))) return undefined;
  return values as AttributeValue;
}
