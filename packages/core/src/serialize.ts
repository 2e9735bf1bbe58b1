/**
 * JSON for span attributes that never throws: circular references, BigInt, errors and values
 * whose `toJSON` throws become readable placeholders while the rest of the value survives.
 */
export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value, replacer());
  } catch {
    return stringifyFallback(value);
  }
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
    } catch {
      out[key] = '[Unserializable]';
    }
  }
  return JSON.stringify(out);
}
