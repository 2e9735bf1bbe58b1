/**
 * JSON for span attributes that never throws and never stalls: binary data of any size
 * (`Buffer`, typed arrays, `ArrayBuffer`, `Blob`) is described as `[binary N bytes, type]` without
 * reading it (before `Buffer.prototype.toJSON` could turn it into an array of numbers), values
 * nested deeper than `MAX_SERIALISED_DEPTH` are cut with a marker, a getter that throws loses
 * only its own key, cycles, BigInts, errors, maps and sets are written readably, and what would
 * be longer than `MAX_SERIALISED_CHARS` (1,000,000, the default attribute cap) is cut there,
 * marker included, before any more of it is read. Plain data takes V8's native `JSON.stringify`
 * once a walk over it (strings are not read, only their length) found nothing native JSON would
 * mishandle. A caller may keep binary data instead of its description (`SerializeHooks.binary`:
 * observation inputs, whose bytes are uploaded) and have a rule of its own write some strings
 * outside the length count (`SerializeHooks.media`: base64 media, which the export uploads; the
 * rule is `export/media/media-text.ts`).
 */
import { TRUNCATION_MARKER } from './capture.js';
import { logger } from './logger.js';

/** Objects nested deeper than this are cut: the value at that depth becomes `DEPTH_MARKER`. */
export const MAX_SERIALISED_DEPTH = 64;

/** What a value nested deeper than `MAX_SERIALISED_DEPTH` becomes. */
export const DEPTH_MARKER = `[truncated by obs: deeper than ${MAX_SERIALISED_DEPTH} levels]`;

/**
 * Longest JSON written, its cut marker included: past it nothing more of the value is read. The
 * default attribute cap (`maxValueChars`), so a value cut here is not cut again (strings are
 * capped by `maxValueChars` alone; structured values by this too).
 */
export const MAX_SERIALISED_CHARS = 1_000_000;

/**
 * A rule that writes some strings of one value outside its length count: the text written in
 * place of `s` (`s` itself, or a shorter form), or undefined to write `s` as any text. `room` is
 * what the value has left. One per value (it may count across the value).
 */
export type MediaText = (s: string, room: number) => string | undefined;

/** What a caller may change in how a value is written. */
export interface SerializeHooks {
  /**
   * The text written in place of binary data (`Buffer`, typed array, `ArrayBuffer`; `description`
   * is what is written otherwise), or undefined for the description.
   */
  binary?(value: object, description: string): string | undefined;
  /**
   * The media rule of values that become observation attributes (`wholeMediaText`, base64 media
   * written whole for the export to upload), a fresh one per value; only values written at the
   * full length limit ask it. Without it media is cut like any text (request bodies, names, score
   * metadata).
   */
  media?: () => MediaText;
}

/** Values (containers and leaves) the fast path's check visits before it takes the rest as plain. */
const CHECK_BUDGET = 200_000;

/**
 * Items of one array, map, set or object the careful writer writes (values with something native
 * JSON would mishandle, or arrays longer than `MAX_SERIALISED_CHARS`); the rest is counted in a marker.
 */
export const MAX_CAREFUL_ITEMS = 100_000;

/**
 * JSON of `value` that never throws: see the file's header. `maxChars` (at most
 * `MAX_SERIALISED_CHARS`) bounds the work for callers that keep less (a name keeps 200).
 */
export function safeStringify(value: unknown, maxChars = MAX_SERIALISED_CHARS, hooks?: SerializeHooks): string {
  try {
    if (isNativeSafe(value, maxChars, maxChars >= MAX_SERIALISED_CHARS ? hooks?.media?.() : undefined)) {
      try {
        return JSON.stringify(value);
      } catch {
        // a getter or toJSON that throws: the careful writer handles it key by key
      }
    }
    // Like JSON.stringify, undefined for undefined (callers that care check for it).
    return new CarefulWriter(Math.min(maxChars, MAX_SERIALISED_CHARS), hooks).write(value) as string;
  } catch (err) {
    return JSON.stringify(unserialisable(reasonOf(err)));
  }
}

/**
 * The attribute form of a value: strings as is, binary data as `[binary N bytes, type]` (or what
 * `hooks.binary` gives), nullish omitted, anything else JSON.
 */
export function toAttributeString(value: unknown, hooks?: SerializeHooks): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'object') {
    try {
      const binary = describeBinaryObject(value);
      if (binary !== undefined) return hooks?.binary?.(value, binary) ?? binary;
    } catch {
      // unreadable: safeStringify says so
    }
  }
  return safeStringify(value, MAX_SERIALISED_CHARS, hooks);
}

/** `[binary N bytes, type]` for binary data, undefined for anything else. O(1): the bytes are never read. */
export function describeBinaryObject(value: object): string | undefined {
  if (ArrayBuffer.isView(value)) return `[binary ${value.byteLength} bytes, ${readOr(() => value.constructor?.name, '') || 'TypedArray'}]`;
  const tag = Object.prototype.toString.call(value);
  if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') {
    return `[binary ${(value as ArrayBuffer).byteLength} bytes, ${tag.slice(8, -1)}]`;
  }
  if (tag === '[object Blob]' || tag === '[object File]') return `[binary ${(value as Blob).size} bytes, ${tag.slice(8, -1)}]`;
  return undefined;
}

/**
 * Whether binary data sits in `value` within `MAX_SERIALISED_DEPTH` levels and the first
 * `CHECK_BUDGET` values: where plain `JSON.stringify` would spend time per byte (`Buffer`'s toJSON).
 */
export function containsBinary(value: unknown): boolean {
  let visits = CHECK_BUDGET;
  const visit = (v: unknown, depth: number): boolean => {
    if (typeof v !== 'object' || v === null || --visits < 0 || depth > MAX_SERIALISED_DEPTH) return false;
    if (describeBinaryObject(v) !== undefined) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length && visits > 0; i++) if (visit(v[i], depth + 1)) return true;
      return false;
    }
    for (const k in v) if (visit((v as Record<string, unknown>)[k], depth + 1)) return true;
    return false;
  };
  try {
    return visit(value, 0);
  } catch {
    return false;
  }
}

/**
 * Why `JSON.stringify(value)` would throw (a cycle, a BigInt), found by walking the structure
 * without writing it (no string is copied), within `MAX_SERIALISED_DEPTH` levels and the first
 * `CHECK_BUDGET` values; undefined when it would not (or when the walk cannot read something).
 */
export function jsonProblem(value: unknown): string | undefined {
  let visits = CHECK_BUDGET;
  const path: object[] = [];
  const visit = (v: unknown, depth: number): string | undefined => {
    if (typeof v === 'bigint') return 'a BigInt';
    if (typeof v !== 'object' || v === null || --visits < 0 || depth > MAX_SERIALISED_DEPTH) return undefined;
    if (path.includes(v)) return 'a circular reference';
    if (describeBinaryObject(v) !== undefined || typeof (v as { toJSON?: unknown }).toJSON === 'function') return undefined;
    path.push(v);
    try {
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length && visits > 0; i++) {
          const problem = visit(v[i], depth + 1);
          if (problem) return problem;
        }
        return undefined;
      }
      for (const k in v) {
        const problem = visit((v as Record<string, unknown>)[k], depth + 1);
        if (problem) return problem;
      }
      return undefined;
    } finally {
      path.pop();
    }
  };
  try {
    return visit(value, 0);
  } catch {
    return undefined;
  }
}

/** The message of `err`, never throwing. */
export function reasonOf(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'unreadable error';
  }
}

/** What an unreadable value is recorded as, said in the process's one warning about them. */
export function unserialisable(reason: string): string {
  warnUnreadableOnce(reason);
  return `[unserialisable: ${reason}]`;
}

/**
 * The one warning of the process about unreadable values (the tracing API's guards write it too),
 * so a placeholder never appears unexplained.
 */
export function warnUnreadableOnce(reason: string): void {
  const line = `a value given to obs could not be read (${reason}); it is recorded as a placeholder. Further such values are not logged.`;
  logger.warnOnce('unreadable-value', line);
}

/**
 * Whether native `JSON.stringify` writes `value` as obs would: no binary data, errors, maps,
 * sets, `toJSON` of its own (a Date's aside), BigInts, functions or symbols, nothing nested past
 * the depth limit, strings (those `media` writes whole aside) shorter together than the
 * length limit (the careful writer cuts them before escaping). Past `CHECK_BUDGET` values, plain data so far is taken as plain (large arrays
 * of numbers, long histories) unless an array is longer than the length limit (a sparse array of
 * a billion holes). Reading a property may throw (a getter, a Proxy): then the careful writer
 * takes over.
 */
function isNativeSafe(value: unknown, maxChars: number, media: MediaText | undefined): boolean {
  if (value === null || typeof value !== 'object') return isNativeLeaf(value);
  let visits = CHECK_BUDGET;
  let chars = 0;
  /** false: not native-safe; true: safe so far; 'enough': the budget ran out on plain data. */
  const visit = (v: object, depth: number): boolean | 'enough' => {
    if (depth >= MAX_SERIALISED_DEPTH) return false;
    if (v instanceof Date) return true;
    if (ArrayBuffer.isView(v) || v instanceof Error || v instanceof Map || v instanceof Set || describeBinaryObject(v) !== undefined) {
      return false;
    }
    if (Array.isArray(v)) {
      if (v.length > maxChars) return false;
      // By index: `for...in` over an array takes V8's slow path (no enum cache for elements).
      for (let i = 0; i < v.length; i++) {
        const verdict = item(v[i], depth);
        if (verdict !== true) return verdict;
      }
      return true;
    }
    // Something with its own toJSON says what it is itself: the careful writer asks it.
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
    for (const k in v) {
      const verdict = item((v as Record<string, unknown>)[k], depth);
      if (verdict !== true) return verdict;
    }
    return true;
  };
  const item = (v: unknown, depth: number): boolean | 'enough' => {
    if (--visits < 0) return 'enough';
    if (typeof v === 'object' && v !== null) return visit(v, depth + 1);
    if (typeof v === 'string') {
      const written = media?.(v, maxChars - chars);
      // Media written whole stays out of the count; media to write in another form: the careful writer does.
      if (written !== undefined) return written === v;
      if ((chars += v.length) > maxChars) return false;
    }
    return isNativeLeaf(v);
  };
  try {
    return visit(value, 0) !== false;
  } catch {
    return false;
  }
}

/** Leaves native JSON writes as obs does: not BigInts (it throws), functions or symbols (it drops them; obs names them). */
function isNativeLeaf(v: unknown): boolean {
  return typeof v !== 'bigint' && typeof v !== 'function' && typeof v !== 'symbol';
}

/** A value to write as it is (toJSON applied, binary described), or `SKIP` for what JSON leaves out. */
const SKIP = Symbol('skip');

/**
 * The careful writer: JSON written part by part, every read guarded (an unreadable value becomes
 * a placeholder, its siblings stay), cycles and depth tracked, and the whole cut at
 * `MAX_SERIALISED_CHARS` (nothing past it is read).
 */
class CarefulWriter {
  /** The value's media rule, when it keeps media (observation values at the full length limit). */
  private readonly media: MediaText | undefined;

  constructor(
    private readonly maxChars: number,
    private readonly hooks?: SerializeHooks,
  ) {
    this.media = maxChars >= MAX_SERIALISED_CHARS ? hooks?.media?.() : undefined;
  }

  private readonly parts: string[] = [];
  private length = 0;
  private cut = false;
  private readonly ancestors: object[] = [];

  /** The JSON of `value`, or undefined for what JSON leaves out at the top. */
  write(value: unknown): string | undefined {
    const resolved = this.resolve(value, '');
    if (resolved === SKIP) return undefined;
    this.value(resolved, 0);
    return this.parts.join('');
  }

  private emit(text: string): void {
    if (this.cut) return;
    const marker = `${TRUNCATION_MARKER}cut at ${this.maxChars} characters]`;
    const room = this.maxChars - marker.length;
    if (this.length + text.length <= room) {
      this.parts.push(text);
      this.length += text.length;
      return;
    }
    this.parts.push(text.slice(0, Math.max(0, room - this.length)), marker);
    this.cut = true;
  }

  /** What `value` is written as: binary described, an error as its name and message, toJSON's answer. */
  private resolve(value: unknown, key: string): unknown {
    if (value === undefined) return SKIP;
    if (value === null || typeof value !== 'object') return value;
    const binary = describeBinaryObject(value);
    if (binary !== undefined) return this.hooks?.binary?.(value, binary) ?? binary;
    if (value instanceof Error) return { name: readOr(() => value.name, 'Error'), message: readOr(() => value.message, '') };
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON !== 'function') return value;
    let replaced: unknown;
    try {
      replaced = toJSON.call(value, key);
    } catch (err) {
      return unserialisable(reasonOf(err));
    }
    // What toJSON gave is written as it is, not asked again (a toJSON returning its object ends here).
    if (replaced === value) return { ...(value as object) };
    return replaced === undefined ? SKIP : replaced;
  }

  private value(value: unknown, depth: number): void {
    if (this.cut) return;
    try {
      this.valueUnguarded(value, depth);
    } catch (err) {
      this.emit(JSON.stringify(unserialisable(reasonOf(err))));
    }
  }

  private valueUnguarded(value: unknown, depth: number): void {
    switch (typeof value) {
      case 'string': {
        // Media is written outside the count (the export swaps it for a reference or a marker).
        const media = this.cut ? undefined : this.media?.(value, this.maxChars - this.length - 64);
        if (media !== undefined) {
          this.parts.push(JSON.stringify(media));
          return;
        }
        // A string longer than what is left is cut before it is escaped: no huge copy.
        this.emit(JSON.stringify(value.slice(0, Math.max(0, this.maxChars - this.length))));
        return;
      }
      case 'number':
        this.emit(Number.isFinite(value) ? String(value) : 'null');
        return;
      case 'boolean':
        this.emit(value ? 'true' : 'false');
        return;
      case 'bigint':
        this.emit(JSON.stringify(`${value.toString()}n`));
        return;
      case 'symbol':
        this.emit(JSON.stringify(value.toString()));
        return;
      case 'function':
        this.emit(JSON.stringify(`[Function ${readOr(() => (value as { name?: unknown }).name, '') || 'anonymous'}]`));
        return;
    }
    if (value === null) {
      this.emit('null');
      return;
    }
    const obj = value as object;
    if (this.ancestors.includes(obj)) {
      this.emit('"[Circular]"');
      return;
    }
    if (depth >= MAX_SERIALISED_DEPTH) {
      this.emit(JSON.stringify(DEPTH_MARKER));
      return;
    }
    this.ancestors.push(obj);
    try {
      if (obj instanceof Map) this.entries(obj.entries(), depth, true);
      else if (obj instanceof Set) this.items(obj.values(), depth);
      else if (Array.isArray(obj)) this.array(obj, depth);
      else this.entries(ownEntries(obj), depth, false);
    } finally {
      this.ancestors.pop();
    }
  }

  private array(items: unknown[], depth: number): void {
    this.emit('[');
    const shown = Math.min(items.length, MAX_CAREFUL_ITEMS);
    for (let i = 0; i < shown && !this.cut; i++) {
      if (i > 0) this.emit(',');
      let item: unknown;
      try {
        item = this.resolve(items[i], String(i));
      } catch (err) {
        item = unserialisable(reasonOf(err));
      }
      this.value(item === SKIP ? null : item, depth + 1);
    }
    this.more(items.length - shown, shown > 0);
    this.emit(']');
  }

  /** The marker of items past `MAX_CAREFUL_ITEMS`, as one more item. */
  private more(count: number, comma: boolean): void {
    if (count > 0) this.emit(`${comma ? ',' : ''}${JSON.stringify(`${TRUNCATION_MARKER}${count} more items]`)}`);
  }

  private items(items: Iterable<unknown>, depth: number): void {
    this.emit('[');
    let first = true;
    let written = 0;
    let left = 0;
    for (const raw of items) {
      if (this.cut) break;
      if (written++ >= MAX_CAREFUL_ITEMS) {
        left++;
        continue;
      }
      if (!first) this.emit(',');
      first = false;
      const item = this.resolve(raw, '');
      this.value(item === SKIP ? null : item, depth + 1);
    }
    this.more(left, !first);
    this.emit(']');
  }

  private entries(entries: Iterable<[unknown, unknown]>, depth: number, mapKeys: boolean): void {
    this.emit('{');
    let first = true;
    let written = 0;
    let left = 0;
    for (const [rawKey, raw] of entries) {
      if (this.cut) break;
      if (written++ >= MAX_CAREFUL_ITEMS) {
        left++;
        continue;
      }
      const key = mapKeys ? readOr(() => String(rawKey), '[unreadable key]') : (rawKey as string);
      let item: unknown;
      try {
        item = this.resolve(raw, key);
      } catch (err) {
        item = unserialisable(reasonOf(err));
      }
      if (item === SKIP) continue;
      this.emit(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      this.value(item, depth + 1);
    }
    if (left > 0) this.emit(`${first ? '' : ','}${JSON.stringify(`${TRUNCATION_MARKER}${left} more entries]`)}:null`);
    this.emit('}');
  }
}

/** An object's own enumerable fields, each read on its own: one that throws becomes a placeholder. */
function* ownEntries(obj: object): Generator<[string, unknown]> {
  for (const key of Object.keys(obj)) {
    let v: unknown;
    try {
      v = (obj as Record<string, unknown>)[key];
    } catch (err) {
      v = unserialisable(reasonOf(err));
    }
    yield [key, v];
  }
}

/** What `read` gives when it is of `fallback`'s type, else (or when it throws) `fallback`. */
export function readOr<T>(read: () => unknown, fallback: T): T {
  try {
    const v = read();
    return typeof v === typeof fallback ? (v as T) : fallback;
  } catch {
    return fallback;
  }
}
