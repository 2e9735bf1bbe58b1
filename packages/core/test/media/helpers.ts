/** What the media tests read off the spans the server decoded: references, and any base64 left. */
import type { DecodedSpan, ObsServer } from '@obs/local-server';
import { expect } from 'vitest';

export interface Reference {
  type: string;
  id: string;
  source: string;
  /** The whole reference string. */
  text: string;
}

const REFERENCE = /@@@obsMedia:type=([^|@]+)\|id=([^|@]+)\|source=([^|@]+)@@@/g;

/** Every reference in `text`. */
export function referencesIn(text: string): Reference[] {
  return [...text.matchAll(REFERENCE)].map((m) => ({ type: m[1]!, id: m[2]!, source: m[3]!, text: m[0] }));
}

/** The one reference (possibly repeated) in the span's attribute `key`. */
export function referenceIn(span: DecodedSpan, key: string): Reference {
  const value = span.attributes[key];
  expect(typeof value, `${key} of ${span.name}`).toBe('string');
  const refs = referencesIn(value as string);
  expect(new Set(refs.map((r) => r.text)).size, `references in ${key} of ${span.name}: ${String(value).slice(0, 300)}`).toBe(1);
  return refs[0]!;
}

/** Every string the server received in span attributes (array items included), of every span. */
export function exportedAttributes(server: ObsServer): string[] {
  const out: string[] = [];
  for (const span of server.spans()) {
    for (const value of Object.values(span.attributes)) {
      if (typeof value === 'string') out.push(value);
      else if (Array.isArray(value)) for (const v of value) if (typeof v === 'string') out.push(v);
    }
  }
  return out;
}

/** The longest run of base64 characters in any of `texts`. */
export function longestBase64Run(texts: string[]): number {
  let longest = 0;
  for (const text of texts) for (const m of text.matchAll(/[A-Za-z0-9+/=]{64,}/g)) longest = Math.max(longest, m[0].length);
  return longest;
}
