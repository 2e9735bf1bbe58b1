/**
 * The handler's options read once, each on its own: one that cannot be read or has the wrong
 * type is replaced by its default, with one warning line; options that cannot be read at all
 * (`null`, a Proxy that throws) give the defaults.
 */
import { MASK_FAILED, type MaskFunction, type PropagateAttributesParams } from '@obs/core';
import { logger } from '@obs/core/kit';
import {
  DEFAULT_ABANDON_AFTER_MS,
  DEFAULT_ABANDON_AFTER_PARENT_END_MS,
  DEFAULT_MAX_OPEN_RUNS,
  type CallbackHandlerOptions,
} from './options.js';
import type { RunLimits } from './run-tracker.js';
import { isPlainRecord, reasonOf } from './safety.js';

/** What the handler runs with. */
export interface HandlerSettings {
  /** The handler's trace attributes, without `traceMetadata` (it is masked first). */
  trace: Omit<PropagateAttributesParams, 'metadata'>;
  traceMetadata: unknown;
  mask: MaskFunction | undefined;
  background: boolean;
  limits: RunLimits;
}

type Key = keyof CallbackHandlerOptions;

const KEYS: Key[] = [
  'userId',
  'sessionId',
  'tags',
  'version',
  'traceMetadata',
  'traceName',
  'mask',
  'background',
  'abandonAfterMs',
  'abandonAfterParentEndMs',
  'maxOpenRuns',
];

/** The settings of `new CallbackHandler(options)`. Never throws. */
export function readSettings(options: unknown): HandlerSettings {
  const settings = defaults();
  if (options === undefined) return settings;
  if (typeof options !== 'object' || options === null) {
    warn(`options must be an object, not ${options === null ? 'null' : typeof options}; the defaults apply`);
    return settings;
  }
  const ignored: string[] = [];
  let unreadable = 0;
  let reason = '';
  for (const key of KEYS) {
    try {
      const value: unknown = (options as Record<Key, unknown>)[key];
      if (value !== undefined && !apply(settings, key, value)) ignored.push(`${key} (${kindOf(key, value)})`);
    } catch (err) {
      unreadable++;
      reason ||= reasonOf(err);
      ignored.push(`${key} (unreadable)`);
      if (key === 'mask') settings.mask = maskAll;
    }
  }
  if (unreadable === KEYS.length) {
    warn(`options could not be read (${reason}); the defaults apply`);
    return defaults();
  }
  if (ignored.length > 0) {
    const masked = settings.mask === maskAll ? 'a mask that cannot run masks every value; ' : '';
    warn(`ignored options it cannot use: ${ignored.join(', ')}; ${masked}the others take their defaults`);
  }
  return settings;
}

/** Stores one option in `s`; false when its value cannot be used. */
function apply(s: HandlerSettings, key: Key, v: unknown): boolean {
  switch (key) {
    case 'userId':
    case 'sessionId':
    case 'version':
    case 'traceName':
      if (typeof v !== 'string') return false;
      s.trace[key] = v;
      return true;
    case 'tags':
      if (!Array.isArray(v) || !v.every((t) => typeof t === 'string')) return false;
      s.trace.tags = [...v];
      return true;
    case 'traceMetadata':
      if (!isPlainRecord(v)) return false;
      s.traceMetadata = v;
      return true;
    case 'mask':
      // A mask that cannot run masks everything: failing open would export what it was meant to hide.
      s.mask = typeof v === 'function' ? (v as MaskFunction) : maskAll;
      return s.mask !== maskAll;
    case 'background':
      if (typeof v !== 'boolean') return false;
      s.background = v;
      return true;
    default:
      // abandonAfterMs, abandonAfterParentEndMs, maxOpenRuns
      if (typeof v !== 'number' || !(v >= 0)) return false;
      s.limits[key] = v;
      return true;
  }
}

function defaults(): HandlerSettings {
  return {
    trace: {},
    traceMetadata: undefined,
    mask: undefined,
    background: false,
    limits: {
      abandonAfterMs: DEFAULT_ABANDON_AFTER_MS,
      abandonAfterParentEndMs: DEFAULT_ABANDON_AFTER_PARENT_END_MS,
      maxOpenRuns: DEFAULT_MAX_OPEN_RUNS,
    },
  };
}

const maskAll: MaskFunction = () => MASK_FAILED;

function kindOf(key: Key, v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return key === 'tags' ? 'not all strings' : 'an array';
  return typeof v;
}

/** One line per process: handlers made per request with the same options say it once. */
function warn(message: string): void {
  logger.warnOnce('langchain-options', `CallbackHandler: ${message}. Further option problems are logged at debug level.`);
  logger.debug(`CallbackHandler: ${message}`);
}
