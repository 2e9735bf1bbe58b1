/**
 * The JSON of captured values (inputs, outputs, metadata): plain data takes V8's fast path, and
 * what plain JSON would write as `{}` (errors, maps, sets) or as an object of indices (typed
 * arrays) is written readably, in arrays as in objects.
 */
import { describe, expect, it } from 'vitest';
import { safeStringify, toAttributeString } from '../../src/kit.js';
import { wholeMediaText } from '../../src/export/media/media-text.js';
import { MAX_SERIALISED_CHARS } from '../../src/util/serialize.js';

describe('safeStringify', () => {
  it('writes plain arrays and objects as JSON', () => {
    expect(safeStringify(['42', 'hello', 3, null, { a: [1, 2] }])).toBe('["42","hello",3,null,{"a":[1,2]}]');
    expect(safeStringify({ message: 'hi', n: 1 })).toBe('{"message":"hi","n":1}');
  });

  it('writes errors, maps, sets and typed arrays readably inside arrays and objects', () => {
    const values = [new TypeError('bad'), new Map([['k', 1]]), new Set(['x']), new Uint8Array(3)];
    expect(JSON.parse(safeStringify(values))).toEqual([
      { name: 'TypeError', message: 'bad' },
      { k: 1 },
      ['x'],
      '[binary 3 bytes, Uint8Array]',
    ]);
    expect(JSON.parse(safeStringify({ error: new Error('e'), tags: new Set(['t']) }))).toEqual({
      error: { name: 'Error', message: 'e' },
      tags: ['t'],
    });
  });

  it('writes cycles and BigInts without throwing, and non-plain arrays through the careful path', () => {
    const loop: unknown[] = ['a'];
    loop.push(loop);
    expect(safeStringify(loop)).toBe('["a","[Circular]"]');
    expect(safeStringify([1n, 2])).toBe('["1n",2]');
    class Args extends Array<unknown> {}
    const args = Args.from([new Error('inner')]);
    expect(JSON.parse(safeStringify(args))).toEqual([{ name: 'Error', message: 'inner' }]);
  });
});

describe('base64 media in a value', () => {
  const uri = `data:image/png;base64,${'A'.repeat(2_000_000)}`;
  it('is written whole only when the caller asks (observation values, for the upload: the media rule of export/media)', () => {
    expect(safeStringify({ image: uri }, MAX_SERIALISED_CHARS, { media: wholeMediaText })).toBe(JSON.stringify({ image: uri }));
    // A request body, a name, score metadata: cut like any text, never a 2 MB copy.
    expect(safeStringify({ image: uri }).length).toBeLessThanOrEqual(MAX_SERIALISED_CHARS + 64);
    expect(toAttributeString([{ image: uri }])!.length).toBeLessThanOrEqual(MAX_SERIALISED_CHARS + 64);
  });
});
