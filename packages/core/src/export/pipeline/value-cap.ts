/**
 * Per-value cap on input, output and metadata attributes, so one oversized value (a base64
 * image) cannot make its whole batch unsendable. Cut values end with the adapters' marker.
 */
import type { Attributes } from '@opentelemetry/api';
import { truncateText } from '../../util/capture.js';
import { isMaskedKey } from './mask.js';

/** Default cap per input/output/metadata value, in characters (~1 MB). */
export const DEFAULT_MAX_VALUE_CHARS = 1_000_000;

/** Cuts every input/output/metadata string attribute longer than `maxChars`; returns how many were cut. */
export function capAttributeValues(attributes: Attributes, maxChars: number): number {
  let cut = 0;
  for (const key in attributes) {
    const value = attributes[key];
    if (typeof value !== 'string' || value.length <= maxChars || !isMaskedKey(key)) continue;
    attributes[key] = truncateText(value, maxChars);
    cut++;
  }
  return cut;
}
