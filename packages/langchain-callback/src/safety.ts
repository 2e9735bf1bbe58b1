/**
 * What keeps the handler from throwing into LangChain: a hook's failure is logged, never thrown,
 * and what LangChain hands over is read even when it cannot be read whole (a throwing getter, a
 * revoked Proxy, a null-prototype object), with one warning per process for all of it.
 */
import { type Dict, errorMessage, logger } from '@obs/core/kit';

/** The message of a thrown value (a Proxy, a null-prototype object, anything), never throwing. */
export function reasonOf(err: unknown): string {
  try {
    return errorMessage(err);
  } catch {
    return 'unreadable error';
  }
}

/** What an unreadable value is recorded as (core's placeholder wording). */
export function placeholder(err: unknown): string {
  return `[unserialisable: ${reasonOf(err)}]`;
}

/** One warning per process for every value the handler could not read; the rest at debug level. */
export function noteUnreadable(what: string, err: unknown): void {
  const message = `CallbackHandler: ${what} could not be read (${reasonOf(err)}); what can be read is recorded`;
  logger.warnOnce('langchain-unreadable', `${message}. Further unreadable values are logged at debug level.`);
  logger.debug(message);
}

/**
 * Whether `v` is a plain object, as LangChain's metadata and the handler's options are: not an
 * array, a Buffer or a class instance, whose keys would be walked one by one. Throws for a Proxy
 * that cannot tell its prototype.
 */
export function isPlainRecord(v: unknown): v is Dict {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A plain copy of a record's own keys, a key that cannot be read as a placeholder; undefined if nothing can be read. */
export function readableRecord(value: unknown): Dict | undefined {
  let keys: string[];
  try {
    if (!isPlainRecord(value)) return undefined;
    keys = Object.keys(value);
  } catch {
    return undefined;
  }
  const out: Dict = {};
  for (const key of keys) {
    try {
      out[key] = (value as Dict)[key];
    } catch (err) {
      out[key] = placeholder(err);
    }
  }
  return out;
}

/** The strings of an array of tags; undefined if it cannot be read. */
export function readableTags(value: unknown): string[] | undefined {
  try {
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : undefined;
  } catch {
    return undefined;
  }
}

/** A hook's work failed: logged (once per hook at warning level, then at debug level), never thrown into LangChain. */
export function hookFailed(hook: string, err: unknown): void {
  const message = `CallbackHandler.${hook} failed: ${reasonOf(err)}`;
  logger.warnOnce(`langchain-${hook}`, `${message} (further failures of ${hook} are logged at debug level)`);
  logger.debug(message);
}

/** What a callback said about `arg`, or `fallback` when what LangChain passed to `hook` cannot be read. */
export function describedOr<A, T>(hook: string, describe: (arg: A) => T, arg: A, fallback: T): T {
  try {
    return describe(arg);
  } catch (err) {
    noteUnreadable(`what LangChain passed to ${hook}`, err);
    return fallback;
  }
}
