import { isPlainObject } from '../util/guards.js';
import { DEFAULT_REDACT_KEYS } from './options.js';

/** What a redacted value becomes. */
export const REDACTED = '[REDACTED]';

const MAX_DEPTH = 32;

/**
 * A key set, built once per adapter. A key is redacted when its name *contains* one of the
 * entries, case-insensitively and ignoring `-` and `_` (`api_key` catches `x-api-key`,
 * `openai_api_key` and `apiKey`), like Sentry's scrubber.
 */
export function redactKeySet(keys: string[]): Set<string> {
  return new Set(keys.map(normalizeKey).filter((k) => k !== ''));
}

/** Lower case without `-`, `_` and spaces: the form keys are compared in. */
function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, '');
}

/**
 * Keys that name an identifier, not a secret, though they contain an entry: obs's own
 * `sessionId` (and `session_id`) groups traces and must stay readable.
 */
const IDENTIFIER_KEYS = new Set(['sessionid']);

/**
 * Keys that contain an entry but hold no secret, matched on the normalised key: token counts
 * and limits of LLM calls (`max_tokens`, `usage.total_tokens`, `tokenCount`) and authors.
 */
const NOT_SECRET = /tokens|tokencount|tokenusage|tokenizer|tokenlimit|^author(s|name|id)?$/;

/**
 * Verdicts per key set, per key: bodies repeat the same few keys on every request, and judging
 * one is a lower-casing, a regex replace and a scan of the set. Bounded, for apps whose keys vary.
 */
const verdicts = new WeakMap<Set<string>, Map<string, boolean>>();
const MAX_VERDICTS = 10_000;

/**
 * Whether `key` is redacted by `keys` (see `redactKeySet`). Verdicts are remembered per set:
 * build a new set rather than changing one already used.
 */
export function isRedactedKey(key: string, keys: Set<string>): boolean {
  let known = verdicts.get(keys);
  if (!known) verdicts.set(keys, (known = new Map()));
  let verdict = known.get(key);
  if (verdict === undefined) {
    verdict = judgeKey(key, keys);
    if (known.size >= MAX_VERDICTS) known.clear();
    known.set(key, verdict);
  }
  return verdict;
}

function judgeKey(key: string, keys: Set<string>): boolean {
  const k = normalizeKey(key);
  if (keys.has(k)) return true;
  if (IDENTIFIER_KEYS.has(k) || NOT_SECRET.test(k)) return false;
  // The set holds normalised entries already (redactKeySet).
  for (const entry of keys) if (k.includes(entry)) return true;
  return false;
}

/** The default key set (`DEFAULT_REDACT_KEYS`), for integrations that redact model parameters or metadata. */
export const DEFAULT_REDACT_KEY_SET: Set<string> = redactKeySet(DEFAULT_REDACT_KEYS);

/** `value` with the default secret keys redacted at any depth (see `redact`). */
export function redactSecrets(value: unknown): unknown {
  return redact(value, DEFAULT_REDACT_KEY_SET);
}

/** What a value nested deeper than the redaction walk becomes. */
const TOO_DEEP = '[omitted: nested too deep to redact]';

/** What a reference back to an ancestor becomes (as `safeStringify` writes it). */
const CIRCULAR = '[Circular]';

/**
 * Copy of `value` with the listed keys replaced by `[REDACTED]` at any depth. Values that
 * need no change are returned as they are, so the common case allocates nothing. An object
 * reached twice gets the same result both times; a circular reference becomes `[Circular]`
 * (the original would lead back to unredacted values).
 */
export function redact(value: unknown, keys: Set<string>, depth = 0, seen?: Map<object, unknown>): unknown {
  if (keys.size === 0 || value === null || typeof value !== 'object') return value;
  // Deeper than we walk, we cannot vouch for what it holds: it is not exported.
  if (seen === undefined) return depth >= MAX_DEPTH ? TOO_DEEP : redactObject(value, keys, depth, undefined);
  if (seen.has(value)) return seen.get(value);
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  seen.set(value, CIRCULAR); // until its result is known: only a cycle finds it in this state
  const result = redactObject(value, keys, depth, seen);
  seen.set(value, result);
  return result;
}

/**
 * The objects met by one `redact` call, made at the first child that is an object, so a flat
 * body allocates none; the root enters it then, to be found by a cycle. A Map, not a WeakMap: it
 * lives for one call, and weak entries cost every GC ephemeron work.
 */
function metFrom(root: object): Map<object, unknown> {
  return new Map([[root, CIRCULAR]]);
}

function redactObject(value: object, keys: Set<string>, depth: number, seen: Map<object, unknown> | undefined): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === null || typeof item !== 'object') continue;
      const v = redact(item, keys, depth + 1, (seen ??= metFrom(value)));
      if (v !== item) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  if (value instanceof Map) return redactObject(Object.fromEntries(value), keys, depth, seen ?? metFrom(value));
  // Opaque values serialise without own secrets; class instances serialise their fields, so
  // they are walked like plain objects (their copy is a plain object: it is only serialised).
  if (value instanceof Date || ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Set) return value;
  const plain = isPlainObject(value);
  let out: Record<string, unknown> | undefined;
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const v = (value as Record<string, unknown>)[k];
    let next: unknown;
    if (isRedactedKey(k, keys)) next = REDACTED;
    else if (v === null || typeof v !== 'object') next = v;
    else next = redact(v, keys, depth + 1, (seen ??= metFrom(value)));
    if (next !== v || (!plain && !out)) (out ??= { ...(value as Record<string, unknown>) })[k] = next;
  }
  return out ?? value;
}

/**
 * Redacts `"key": value` pairs in JSON text that cannot be parsed (e.g. a body cut at a size
 * cap), so a secret near the start of a large request is not exported verbatim.
 */
export function redactJsonText(text: string, keys: Set<string>): string {
  if (keys.size === 0) return text;
  return text.replace(JSON_PAIR, (pair, prefix: string, key: string) => (isRedactedKey(key, keys) ? `${prefix}"${REDACTED}"` : pair));
}

/** A `"key": value` pair of JSON text (the value possibly cut). */
const JSON_PAIR = /("((?:[^"\\]|\\.)*)"\s*:\s*)("(?:[^"\\]|\\.)*"?|[^,{}[\]\s]*)/g;
