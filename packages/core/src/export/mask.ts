import type { Attributes } from '@opentelemetry/api';
import { MASKED_KEY_PREFIXES } from '../attributes.js';
import { logger } from '../logger.js';

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
    try {
      const isIo = !key.includes('.metadata');
      const data = isIo && typeof raw === 'string' ? parseMaybeJson(raw) : raw;
      const masked = mask({ data });
      attributes[key] = toAttribute(masked, raw);
    } catch (err) {
      logger.warn(`mask threw on ${key}; the value was fully masked (${String(err)})`);
      attributes[key] = MASK_FAILED;
    }
  }
}

function isMaskedKey(key: string): boolean {
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
