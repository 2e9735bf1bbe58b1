/**
 * JSON for span attributes that never throws and never stalls: binary data of any size
 * (`Buffer`, typed arrays, `ArrayBuffer`, `Blob`) is described as `[binary N bytes, type]` without
 * reading it (before `Buffer.prototype.toJSON` could turn it into an array of numbers), values
 * nested deeper than `MAX_SERIALISED_DEPTH` are cut with a marker, a getter that throws loses
 * only its own key, and cycles, BigInts, errors, maps and sets are written readably. Plain data
 * takes V8's native `JSON.stringify` once a walk over its containers (not its strings) found
 * nothing it would mishandle.
 */

/** Objects nested deeper than this are cut: the value at that depth becomes `DEPTH_MARKER`. */
export const MAX_SERIALISED_DEPTH = 64;

/** What a value nested deeper than `MAX_SERIALISED_DEPTH` becomes. */
export const DEPTH_MARKER = `[truncated by obs: deeper than ${MAX_SERIALISED_DEPTH} levels]`;

/** Containers the fast path's check visits before it hands the value to the careful writer. */
const CHECK_BUDGET = 20_000;

export function safeStringify(value: unknown): string {
  try {
    if (isNativeSafe(value)) {
      try {
        return JSON.stringify(value);
      } catch {
        // a getter or toJSON that throws, a cycle: the careful writer handles it key by key
      }
    }
    // Like JSON.stringify, undefined for undefined (callers that care check for it).
    return write(value, 0, []) as string;
  } catch (err) {
    return JSON.stringify(unserialisable(reasonOf(err)));
  }
}

/** The attribute form of a value: strings as is, nullish omitted, anything else JSON. */
export function toAttributeString(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  return safeStringify(value);
}

/** `[binary N bytes, type]` for binary data, undefined for anything else. O(1): the bytes are never read. */
export function describeBinary(value: object): string | undefined {
  if (ArrayBuffer.isView(value)) return `[binary ${value.byteLength} bytes, ${typeName(value, 'TypedArray')}]`;
  const tag = Object.prototype.toString.call(value);
  if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') {
    return `[binary ${(value as ArrayBuffer).byteLength} bytes, ${tag.slice(8, -1)}]`;
  }
  if (tag === '[object Blob]' || tag === '[object File]') return `[binary ${(value as Blob).size} bytes, ${tag.slice(8, -1)}]`;
  return undefined;
}

/** The message of `err`, never throwing. */
export function reasonOf(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'unreadable error';
  }
}

/** What an unreadable value is recorded as. */
export function unserialisable(reason: string): string {
  return `[unserialisable: ${reason}]`;
}

function typeName(value: object, fallback: string): string {
  try {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? name : fallback;
  } catch {
    return fallback;
  }
}

/**
 * Whether native `JSON.stringify` writes `value` as obs would: no binary data, errors, maps,
 * sets, BigInts or functions in arrays, nothing nested past the depth limit, within the check's
 * budget. Reading a property may throw (a getter, a Proxy): then the careful writer takes over.
 */
function isNativeSafe(value: unknown): boolean {
  if (value === null || typeof value !== 'object') {
    return typeof value !== 'bigint' && typeof value !== 'function' && typeof value !== 'symbol';
  }
  let budget = CHECK_BUDGET;
  const visit = (v: object, depth: number): boolean => {
    if (--budget < 0 || depth >= MAX_SERIALISED_DEPTH) return false;
    if (v instanceof Date) return true;
    if (ArrayBuffer.isView(v) || v instanceof Error || v instanceof Map || v instanceof Set || describeBinary(v) !== undefined) {
      return false;
    }
    if (Array.isArray(v)) {
      // By index: `for...in` over an array takes V8's slow path (no enum cache for elements).
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (typeof item === 'object' ? item !== null && !visit(item, depth + 1) : !isNativeLeaf(item)) return false;
      }
      return true;
    }
    // Something with its own toJSON (not a Date) says what it is itself: the careful writer asks it.
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
    for (const k in v) {
      const item: unknown = (v as Record<string, unknown>)[k];
      if (typeof item === 'object' ? item !== null && !visit(item, depth + 1) : !isNativeLeaf(item)) return false;
    }
    return true;
  };
  try {
    return visit(value, 0);
  } catch {
    return false;
  }
}

/** Leaves native JSON writes as obs does: not BigInts (it throws), functions or symbols (it drops them; obs names them). */
function isNativeLeaf(v: unknown): boolean {
  return typeof v !== 'bigint' && typeof v !== 'function' && typeof v !== 'symbol';
}

/**
 * The careful writer: JSON of `value` at `depth`, `ancestors` being the objects on the path to
 * it (for cycles). Undefined for what JSON leaves out (undefined at the top, in an object). A
 * value that cannot be read (a revoked Proxy) becomes a placeholder, its siblings stay.
 */
function write(value: unknown, depth: number, ancestors: object[]): string | undefined {
  try {
    return writeValue(value, depth, ancestors);
  } catch (err) {
    return JSON.stringify(unserialisable(reasonOf(err)));
  }
}

function writeValue(value: unknown, depth: number, ancestors: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(`${value.toString()}n`);
    case 'symbol':
      return JSON.stringify(value.toString());
    case 'function':
      return JSON.stringify(`[Function ${functionName(value)}]`);
    case 'undefined':
      return undefined;
  }
  if (value === null) return 'null';
  const obj = value as object;
  const binary = describeBinary(obj);
  if (binary !== undefined) return JSON.stringify(binary);
  if (ancestors.includes(obj)) return '"[Circular]"';
  if (depth >= MAX_SERIALISED_DEPTH) return JSON.stringify(DEPTH_MARKER);
  if (obj instanceof Error)
    return `{"name":${JSON.stringify(readOr(() => obj.name, 'Error'))},"message":${JSON.stringify(readOr(() => obj.message, ''))}}`;
  const toJSON = (obj as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    let replaced: unknown;
    try {
      replaced = toJSON.call(obj, '');
    } catch (err) {
      return JSON.stringify(unserialisable(reasonOf(err)));
    }
    // What toJSON gave is written as it is, not asked again (a toJSON returning itself ends here).
    if (replaced === obj) return writeFields(obj, depth, ancestors);
    return write(replaced, depth, ancestors);
  }
  ancestors.push(obj);
  try {
    if (obj instanceof Map)
      return writeEntries(
        [...obj.entries()].map(([k, v]) => [String(k), v]),
        depth,
        ancestors,
      );
    if (obj instanceof Set || Array.isArray(obj)) {
      const items = obj instanceof Set ? [...obj] : obj;
      const parts: string[] = [];
      for (let i = 0; i < items.length; i++) {
        let item: unknown;
        try {
          item = items[i];
        } catch (err) {
          parts.push(JSON.stringify(unserialisable(reasonOf(err))));
          continue;
        }
        parts.push(write(item, depth + 1, ancestors) ?? 'null');
      }
      return `[${parts.join(',')}]`;
    }
    return writeFields(obj, depth, ancestors, false);
  } finally {
    ancestors.pop();
  }
}

/** An object's own enumerable fields, each read on its own: one that throws becomes a placeholder. */
function writeFields(obj: object, depth: number, ancestors: object[], push = true): string {
  if (push) ancestors.push(obj);
  try {
    const entries: [string, unknown][] = [];
    for (const key of Object.keys(obj)) {
      try {
        entries.push([key, (obj as Record<string, unknown>)[key]]);
      } catch (err) {
        entries.push([key, unserialisable(reasonOf(err))]);
      }
    }
    return writeEntries(entries, depth, ancestors);
  } finally {
    if (push) ancestors.pop();
  }
}

function writeEntries(entries: [string, unknown][], depth: number, ancestors: object[]): string {
  const parts: string[] = [];
  for (const [key, v] of entries) {
    const json = write(v, depth + 1, ancestors);
    if (json !== undefined) parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${parts.join(',')}}`;
}

function functionName(fn: unknown): string {
  return readOr(() => (fn as { name?: unknown }).name, '') || 'anonymous';
}

function readOr<T>(read: () => unknown, fallback: T): T {
  try {
    const v = read();
    return typeof v === typeof fallback ? (v as T) : fallback;
  } catch {
    return fallback;
  }
}
