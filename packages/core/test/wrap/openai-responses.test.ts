/**
 * The Responses format's readers in the kit, which `@obs/openai` and `@obs/openai-agents` share:
 * both packages' items (the API's `call_id`/`function_call_output`, the Agents SDK's
 * `callId`/`function_call_result` with a text object) read alike, and a response's status is its
 * level. The packages' suites check the same readers on the wire, through their SDKs.
 */
import { describe, expect, it } from 'vitest';
import { openAiResponse, openAiResponseInput } from '../../src/wrap/openai-responses.js';

describe("the kit's OpenAI Responses readers", () => {
  it("reads the API's items and the Agents SDK's own protocol as the same messages", () => {
    const call = { type: 'function_call', name: 'lookup', arguments: '{"q":"x"}' };
    const api = openAiResponseInput([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'find ' },
          { type: 'input_text', text: 'x' },
        ],
      },
      { ...call, call_id: 'c1' },
      { type: 'function_call_output', call_id: 'c1', output: 'found' },
    ]);
    const agents = openAiResponseInput([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'find ' },
          { type: 'input_text', text: 'x' },
        ],
      },
      { ...call, callId: 'c1' },
      { type: 'function_call_result', callId: 'c1', output: { type: 'text', text: 'found' } },
    ]);
    expect(agents).toEqual(api);
    expect(api).toEqual([
      { role: 'user', content: 'find x' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'lookup', args: { q: 'x' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'found' },
    ]);
    expect(openAiResponseInput([{ type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }] }])).toEqual([
      { role: 'assistant', content: '', reasoning: 'think' },
    ]);
    expect(openAiResponseInput('hi')).toEqual([{ role: 'user', content: 'hi' }]);
    expect(openAiResponseInput(undefined)).toEqual([]);
  });

  it('reads the output list as one message and the status as a level', () => {
    const output = [
      { type: 'reasoning', summary: [] },
      {
        type: 'message',
        content: [
          { type: 'refusal', refusal: 'no' },
          { type: 'refusal', refusal: ', sorry' },
        ],
      },
    ];
    expect(openAiResponse({ status: 'failed', error: { message: 'server_error' }, output })).toMatchObject({
      output: { role: 'assistant', content: '', refusal: 'no, sorry' },
      level: 'ERROR',
      statusMessage: 'server_error',
    });
    expect(openAiResponse({ status: 'failed', output }).output).not.toHaveProperty('reasoning');
    expect(openAiResponse({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } })).toMatchObject({
      level: 'WARNING',
      statusMessage: 'incomplete: max_output_tokens',
    });
    expect(openAiResponse('not a response')).toEqual({ output: 'not a response' });
  });
});
