import { describe, expect, it } from 'vitest';
import { GENAI_PARAMETER_NAMES, modelParameters } from '../../src/genai/span-reading.js';

describe('modelParameters', () => {
  it('renames by the table, leaves undefined values out, and is undefined when nothing is left', () => {
    expect(
      modelParameters(
        [
          ['maxTokens', 5],
          ['temperature', 0.2],
          ['topP', undefined],
        ],
        GENAI_PARAMETER_NAMES,
      ),
    ).toEqual({
      max_tokens: 5,
      temperature: 0.2,
    });
    expect(modelParameters([['topP', undefined]], GENAI_PARAMETER_NAMES)).toBeUndefined();
  });

  it("keeps a span's parameters named constructor, toString and __proto__ as parameters", () => {
    const params = modelParameters(
      [
        ['constructor', 'c'],
        ['toString', 't'],
        ['__proto__', { polluted: true }],
      ],
      GENAI_PARAMETER_NAMES,
    )!;
    expect(Object.keys(params)).toEqual(['constructor', 'toString', '__proto__']);
    expect(JSON.parse(JSON.stringify(params))).toEqual({ constructor: 'c', toString: 't', ['__proto__']: { polluted: true } });
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect((params as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
