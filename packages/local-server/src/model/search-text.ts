/**
 * What full-text search reads of a span (its name, the trace's name, input, output and metadata)
 * and how text splits into words, shared by both stores so that a search finds the same traces
 * in memory and in SQLite (whose FTS5 `unicode61 remove_diacritics 2` tokenizer splits alike).
 */
import type { DecodedSpan } from '../types.js';

const SEARCHED = ['obs.trace.name', 'obs.observation.input', 'obs.observation.output'];
const METADATA = ['obs.observation.metadata.', 'obs.trace.metadata.'];

/** The words a span can be found by, as one string of text. */
export function searchTextOf(span: DecodedSpan): string {
  const parts = [span.name];
  for (const [key, value] of Object.entries(span.attributes)) {
    if (value === null || value === undefined) continue;
    const metadata = METADATA.find((prefix) => key.startsWith(prefix));
    if (!metadata && !SEARCHED.includes(key)) continue;
    if (metadata) parts.push(key.slice(metadata.length)); // a metadata key is found too
    parts.push(typeof value === 'string' ? value : JSON.stringify(value));
  }
  return parts.join('\n');
}

/** Text as the lower-case words without accents that search compares. */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** The words of a query, at most 16 (each must begin a word of a found trace's text). */
export function queryWords(query: string | undefined): string[] {
  return query ? [...new Set(words(query))].slice(0, 16) : [];
}
