/** What a redacted value becomes. */
export const REDACTED = '[REDACTED]';

const MAX_DEPTH = 32;

/** A case-insensitive key set, built once per adapter. */
export function redactKeySet(keys: string[]): Set<string> {
  return new Set(keys.map((k) => k.toLowerCase()));
}

/**
 * Copy of `value` with the listed keys replaced by `[REDACTED]` at any depth. Values that
 * need no change are returned as they are, so the common case allocates nothing.
 */
export function redact(value: unknown, keys: Set<string>, depth = 0, seen = new WeakSet<object>()): unknown {
  if (keys.size === 0 || value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH || seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = redact(value[i], keys, depth + 1, seen);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    const next = keys.has(k.toLowerCase()) ? REDACTED : redact(v, keys, depth + 1, seen);
    if (next !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = next;
  }
  return out ?? value;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
