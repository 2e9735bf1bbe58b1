import type { Attributes } from '@opentelemetry/api';
import { MASKED_KEY_PREFIXES } from '../../tracing/attributes.js';
import { logger } from '../../util/logger.js';

/** A user function that rewrites captured data before it leaves the process. */
export type MaskFunction = (params: { data: unknown }) => unknown;

/** What a throwing mask leaves in place of the data. */
export const MASK_FAILED = '<fully masked due to failed mask function>';

/**
 * Applies `mask` to every input, output and metadata attribute, flattened metadata keys
 * included (`obs.observation.metadata.a.b`). Input/output JSON strings are parsed so the mask
 * sees the value the user passed; a throwing mask masks the attribute fully.
 */
export function applyMask(attributes: Attributes, mask: MaskFunction): void {
  for (const key of Object.keys(attributes)) {
    if (!isMaskedKey(key)) continue;
    const raw = attributes[key];
    if (raw === undefined) continue;
    const isIo = !key.includes('.metadata');
    const masked = maskValue(mask, isIo && typeof raw === 'string' ? parseMaybeJson(raw) : raw);
    attributes[key] = masked === MASK_FAILED ? MASK_FAILED : toAttribute(masked, raw);
  }
}

/**
 * Applies `mask` to one value (for integrations that mask before serialising); a throwing mask
 * masks the value fully, with one warning per process.
 */
export function maskValue(mask: MaskFunction | undefined, data: unknown): unknown {
  if (!mask || data === undefined) return data;
  try {
    return mask({ data });
  } catch (err) {
    logger.warnOnce('mask-threw', `mask threw; values it throws on are fully masked (${String(err)})`);
    return MASK_FAILED;
  }
}

/** Whether `key` is an input, output or metadata attribute (a flattened metadata key included): what the mask and the cap see. */
export function isMaskedKey(key: string): boolean {
  for (const p of MASKED_KEY_PREFIXES) if (key === p || key.startsWith(`${p}.`)) return true;
  return false;
}

function parseMaybeJson(s: string): unknown {
  const c = s.charCodeAt(0);
  // Only JSON objects/arrays are re-parsed: a plain string input stays a string.
  if (c !== 123 && c !== 91) return s;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

function toAttribute(masked: unknown, original: unknown): Attributes[string] {
  if (masked === undefined || masked === null) return '';
  if (typeof masked === 'string' || typeof masked === 'number' || typeof masked === 'boolean') return masked;
  if (Array.isArray(masked) && Array.isArray(original) && masked.every((v) => typeof v === typeof original[0])) {
    return masked as Attributes[string];
  }
  return JSON.stringify(masked);
}
