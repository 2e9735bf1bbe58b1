/**
 * `usageDetails`: the reported totals split into obs's disjoint buckets (wire contract 2.1), so
 * `input + Σ input_*` is the reported input and `output + Σ output_*` the reported output, and
 * nothing a provider reports wrongly (negatives, text, NaN, parts above the total) becomes a
 * negative or non-numeric bucket.
 */
import { describe, expect, it } from 'vitest';
import { count, usageDetails } from '../../src/genai/usage.js';

describe('usageDetails', () => {
  it('moves the parts out of the totals: the buckets add up to what was reported', () => {
    const details = usageDetails({
      input: 100,
      output: 50,
      total: 150,
      inputParts: { cache_read: 40, cache_write: 10 },
      outputParts: { reasoning: 20 },
    });
    expect(details).toEqual({ input: 50, input_cache_read: 40, input_cache_write: 10, output: 30, output_reasoning: 20, total: 150 });
    expect(details!['input']! + details!['input_cache_read']! + details!['input_cache_write']!).toBe(100);
  });

  it('derives the total from input and output when none is reported, and keeps a reported one as it is', () => {
    expect(usageDetails({ input: 7, output: 3 })).toEqual({ input: 7, output: 3, total: 10 });
    expect(usageDetails({ input: 7 })).toEqual({ input: 7, total: 7 });
    expect(usageDetails({ input: 7, output: 3, total: 12 })).toEqual({ input: 7, output: 3, total: 12 });
    expect(usageDetails({ total: 12 })).toEqual({ total: 12 });
  });

  it('is undefined when nothing was reported', () => {
    expect(usageDetails({})).toBeUndefined();
    expect(usageDetails({ input: 'ten', output: null, total: Number.NaN, inputParts: { cache_read: 4 } })).toBeUndefined();
  });

  it('leaves out zero, negative and non-numeric parts; a base never goes below 0', () => {
    expect(
      usageDetails({ input: 10, inputParts: { cache_read: 0, audio: -3, image: 'x', cache_write: Number.POSITIVE_INFINITY } }),
    ).toEqual({
      input: 10,
      total: 10,
    });
    // Parts larger than the total (a provider's inconsistency): the parts are kept, the base is 0.
    expect(usageDetails({ input: 10, output: 1, inputParts: { cache_read: 25 } })).toEqual({
      input: 0,
      input_cache_read: 25,
      output: 1,
      total: 11,
    });
  });

  it('keeps parts when their side has no total', () => {
    expect(usageDetails({ output: 5, inputParts: { cache_read: 4 } })).toEqual({ input_cache_read: 4, output: 5, total: 5 });
  });
});

describe('count', () => {
  it.each([
    [3, 3],
    [0, 0],
    [1.5, 1.5],
    [-1, undefined],
    [Number.NaN, undefined],
    [Number.POSITIVE_INFINITY, undefined],
    ['3', undefined],
    [null, undefined],
    [3n, undefined],
  ])('%s -> %s', (value, expected) => {
    expect(count(value)).toBe(expected);
  });
});
