/**
 * A `response` span's response object read by the kit's Responses reader, as `@obs/openai` reads
 * `responses.create`: its status is the generation's level, every refusal is kept, usage is in
 * obs's buckets. (The runs suites cover completed responses through the real SDK; these statuses
 * are the ones the stand-in does not script.)
 */
import { describe, expect, it } from 'vitest';
import { responseCall } from '../src/model-call.js';
import { USAGE, USAGE_DETAILS } from './stand-in-openai.js';

const response = (extra: Record<string, unknown>) => ({
  _response: { model: 'gpt-test', output: [], usage: USAGE, temperature: 0.2, ...extra },
  _input: 'hi',
});

describe('a response span', () => {
  it('an incomplete response is WARNING with its reason; a failed one ERROR with its message', () => {
    expect(responseCall(response({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }))).toMatchObject({
      model: 'gpt-test',
      level: 'WARNING',
      statusMessage: 'incomplete: max_output_tokens',
      usageDetails: USAGE_DETAILS,
      modelParameters: { temperature: 0.2 },
    });
    expect(responseCall(response({ status: 'failed', error: { message: 'server_error' } }))).toMatchObject({
      level: 'ERROR',
      statusMessage: 'server_error',
    });
    expect(responseCall(response({ status: 'completed' }))).not.toHaveProperty('level');
  });

  it('keeps every refusal of the output, and the input as messages', () => {
    const refusals = [
      {
        type: 'message',
        content: [
          { type: 'refusal', refusal: 'no' },
          { type: 'refusal', refusal: ', sorry' },
        ],
      },
    ];
    const fields = responseCall(response({ status: 'completed', output: refusals, instructions: 'be brief' }));
    expect(fields.output).toEqual({ role: 'assistant', content: '', refusal: 'no, sorry' });
    expect(fields.input).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
    ]);
  });
});
