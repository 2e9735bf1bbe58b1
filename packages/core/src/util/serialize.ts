/**
 * JSON for span attributes that never throws: circular references, BigInt, errors and values
 * whose `toJSON` throws become readable placeholders while the rest of the value survives.
 */
export function safeStringify(value: unknown): string {
  try {
    return stringify(value);
  } catch (err) {
    // A revoked Proxy at the top: nothing of it can be read.
    return JSON.stringify(`[unserialisable: ${errorText(err)}]`);
  }
}

function errorText(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'unreadable error';
  }
}

function stringify(value: unknown): string {
  // Plain JSON first: V8's fast path is lost as soon as a replacer is given, and almost every
  // captured value is plain data. Only values it cannot express go through the replacer.
  if (isPlainData(value)) {
    try {
      return JSON.stringify(value);
    } catch {
      // circular or BigInt somewhere inside: the replacer below handles it
    }
  }
  try {
    return JSON.stringify(value, replacer());
  } catch {
    return stringifyFallback(value);
  }
}

/** Plain objects and arrays whose own values are not errors, maps or sets (checked one level deep). */
function isPlainData(value: unknown): boolean {
  if (value === null || typeof value !== 'object')
    return typeof value !== 'bigint' && typeof value !== 'function' && typeof value !== 'symbol';
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    // By index: `for...in` over an array takes V8's slow path (no enum cache for elements).
    for (let i = 0; i < value.length; i++) if (isOpaque(value[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const k in value) if (isOpaque((value as Record<string, unknown>)[k])) return false;
  return true;
}

/** Values plain JSON would write as `{}` or as an object of indices. */
function isOpaque(v: unknown): boolean {
  return typeof v === 'object' && v !== null && (v instanceof Error || v instanceof Map || v instanceof Set || ArrayBuffer.isView(v));
}

/** The attribute form of a value: strings as is, nullish omitted, anything else JSON. */
export function toAttributeString(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  return safeStringify(value);
}

function replacer(): (this: unknown, key: string, value: unknown) => unknown {
  // Ancestors on the current path, so repeated (non-circular) references still serialise.
  const stack: object[] = [];
  return function (this: unknown, _key: string, value: unknown): unknown {
    if (typeof value === 'bigint') return `${value.toString()}n`;
    if (typeof value === 'function') return `[Function ${(value as { name?: string }).name || 'anonymous'}]`;
    if (typeof value === 'symbol') return value.toString();
    if (value instanceof Error) return { name: value.name, message: value.message };
    if (value === null || typeof value !== 'object') return value;
    const holder = this as object;
    while (stack.length > 0 && stack[stack.length - 1] !== holder) stack.pop();
    if (stack.includes(value)) return '[Circular]';
    stack.push(value);
    if (value instanceof Map) return Object.fromEntries(value);
    if (value instanceof Set) return [...value];
    if (ArrayBuffer.isView(value)) return `[${value.constructor.name} ${value.byteLength} bytes]`;
    return value;
  };
}

function stringifyFallback(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(String(value));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    try {
      out[key] = JSON.parse(JSON.stringify((value as Record<string, unknown>)[key], replacer()) ?? 'null');
    } catch (err) {
      out[key] = `[unserialisable: ${errorText(err)}]`;
    }
  }
  return JSON.stringify(out);
}
