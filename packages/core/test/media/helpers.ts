/** What the media tests read off the spans the server decoded: the reference in an attribute. */
import type { DecodedSpan } from '@obs/local-server';
import { type FoundMediaReference, mediaReferencesIn } from '@obs/local-server/testing';
import { expect } from 'vitest';

/** The one reference (possibly repeated) in the span's attribute `key`. */
export function referenceIn(span: DecodedSpan, key: string): FoundMediaReference {
  const value = span.attributes[key];
  expect(typeof value, `${key} of ${span.name}`).toBe('string');
  const refs = mediaReferencesIn(value as string);
  expect(new Set(refs.map((r) => r.text)).size, `references in ${key} of ${span.name}: ${String(value).slice(0, 300)}`).toBe(1);
  return refs[0]!;
}
