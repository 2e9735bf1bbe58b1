/**
 * Chat messages in obs's one shape, whatever library made them: semantic-convention messages
 * (`parts`), the AI SDK's prompt messages, provider content blocks split by `splitMessages`, tool
 * calls with their JSON arguments parsed, system instructions.
 */
import { describe, expect, it } from 'vitest';
import {
  aiSdkMessages,
  aiSdkPrompt,
  aiSdkToolCalls,
  assistantMessage,
  MessageParts,
  parseJsonValue,
  semconvMessages,
  type SortedBlock,
  splitMessages,
  systemMessages,
  toolCall,
} from '../../src/genai/messages.js';

describe('tool calls and JSON arguments', () => {
  it('parses JSON text of an object or array, and leaves anything else as it is', () => {
    expect(parseJsonValue('{"city":"Oslo"}')).toEqual({ city: 'Oslo' });
    expect(parseJsonValue('  [1,2]')).toEqual([1, 2]);
    expect(parseJsonValue('{not json')).toBe('{not json');
    expect(parseJsonValue('42')).toBe('42');
    expect(parseJsonValue('"text"')).toBe('"text"');
    const object = { a: 1 };
    expect(parseJsonValue(object)).toBe(object);
    expect(toolCall('call_1', 'get_weather', '{"city":"Oslo"}')).toEqual({ id: 'call_1', name: 'get_weather', args: { city: 'Oslo' } });
  });
});

describe('systemMessages', () => {
  it('a string, or semconv parts, as system messages; nothing for an empty string or anything else', () => {
    expect(systemMessages('Be brief.')).toEqual([{ role: 'system', content: 'Be brief.' }]);
    expect(systemMessages([{ type: 'text', content: 'A' }, { type: 'image' }])).toEqual([
      { role: 'system', content: 'A' },
      { role: 'system', content: { type: 'image' } },
    ]);
    expect(systemMessages('')).toEqual([]);
    expect(systemMessages(42)).toEqual([]);
  });
});

describe('semconvMessages', () => {
  it('text, reasoning and tool calls of an assistant message; tool results of a user message as tool messages first', () => {
    const messages = semconvMessages([
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', content: 'Think. ' },
          { type: 'text', content: 'Checking.' },
          { type: 'tool_call', id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' },
          { type: 'tool_call_response', id: 'c1', response: 'sunny' },
        ],
      },
      {
        role: 'user',
        parts: [
          { type: 'tool_call_response', id: 'c1', response: '{"sky":"clear"}' },
          { type: 'text', content: 'Thanks' },
        ],
      },
      {
        role: 'tool',
        parts: [
          { type: 'tool_call_response', id: 'c2', result: 'done' },
          { type: 'text', content: 'raw' },
        ],
      },
    ]);
    expect(messages).toEqual([
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [{ id: 'c1', name: 'weather', args: { city: 'Oslo' } }],
        reasoning: 'Think. ',
      },
      { role: 'tool', tool_call_id: 'c1', content: { sky: 'clear' } },
      { role: 'user', content: 'Thanks' },
      { role: 'tool', tool_call_id: 'c2', content: 'done' },
      { role: 'tool', content: 'raw' },
    ]);
  });

  it('a user message of tool results only is those tool messages; other parts make content a list', () => {
    expect(semconvMessages([{ role: 'user', parts: [{ type: 'tool_call_response', id: 'c1', response: 1 }] }])).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 1 },
    ]);
    expect(
      semconvMessages([
        {
          role: 'user',
          parts: [
            { type: 'text', content: 'see' },
            { type: 'blob', mime_type: 'image/png' },
          ],
        },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'see' },
          { type: 'blob', mime_type: 'image/png' },
        ],
      },
    ]);
  });

  it('anything not in the convention stays as it is', () => {
    expect(semconvMessages('hello')).toEqual(['hello']);
    expect(semconvMessages([{ role: 'user', content: 'plain' }, null])).toEqual([{ role: 'user', content: 'plain' }, null]);
  });
});

describe("the AI SDK's messages", () => {
  it('parts as text, reasoning, tool calls (5+ `input`, 4 `args`) and tool results (5+ `output.value`, 4 `result`)', () => {
    expect(
      aiSdkMessages([
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Hm.' },
            { type: 'text', text: 'Let me look.' },
            { type: 'tool-call', toolCallId: 't1', toolName: 'search', input: { q: 'obs' } },
            { type: 'tool-call', toolCallId: 't2', toolName: 'search', args: '{"q":"v4"}' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 't1', output: { type: 'json', value: { hits: 3 } } },
            { type: 'tool-result', toolCallId: 't2', result: 'none' },
          ],
        },
      ]),
    ).toEqual([
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: 't1', name: 'search', args: { q: 'obs' } },
          { id: 't2', name: 'search', args: { q: 'v4' } },
        ],
        reasoning: 'Hm.',
      },
      { role: 'tool', tool_call_id: 't1', content: { hits: 3 } },
      { role: 'tool', tool_call_id: 't2', content: 'none' },
    ]);
  });

  it('the call-level prompt: system, prompt and messages in order; a prompt of nothing known as it is', () => {
    expect(aiSdkPrompt({ system: 'Be brief.', prompt: 'Hi', messages: [{ role: 'assistant', content: 'Hello' }] })).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
    ]);
    expect(aiSdkPrompt({ other: 1 })).toEqual({ other: 1 });
    expect(aiSdkPrompt('text')).toBe('text');
  });

  it('reported tool calls and the assistant message of a response', () => {
    const calls = aiSdkToolCalls([{ toolCallId: 't1', toolName: 'f', input: '{"a":1}' }, 'junk']);
    expect(calls).toEqual([{ id: 't1', name: 'f', args: { a: 1 } }]);
    expect(aiSdkToolCalls(undefined)).toEqual([]);
    expect(assistantMessage('Done.', calls, 'Because.')).toEqual({
      role: 'assistant',
      content: 'Done.',
      tool_calls: calls,
      reasoning: 'Because.',
    });
    expect(assistantMessage(undefined, [], '')).toEqual({ role: 'assistant', content: '' });
  });
});

describe('splitMessages (provider content blocks)', () => {
  type Block = { type: string; text?: string; id?: string; name?: string; input?: unknown; tool_use_id?: string; content?: unknown };
  const sort = (block: unknown): SortedBlock => {
    const b = block as Block;
    if (b.type === 'tool_use') return { toolCall: toolCall(b.id, b.name, b.input) };
    if (b.type === 'tool_result') return { toolResult: { role: 'tool', tool_call_id: b.tool_use_id, content: b.content } };
    if (b.type === 'thinking') return { reasoning: b.text ?? '' };
    if (b.type === 'cache_marker') return 'skip';
    return 'content';
  };
  const contentOf = (blocks: unknown[]) => blocks.map((b) => (b as Block).text).join('');

  it('tool results first as tool messages, then one message with the rest, its tool calls and reasoning', () => {
    expect(
      splitMessages(
        [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'And now?' },
              { type: 'tool_result', tool_use_id: 'u1', content: 'sunny' },
              { type: 'cache_marker' },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', text: 'Again.' },
              { type: 'tool_use', id: 'u2', name: 'weather', input: '{"city":"Oslo"}' },
            ],
          },
        ],
        sort,
        contentOf,
      ),
    ).toEqual([
      { role: 'tool', tool_call_id: 'u1', content: 'sunny' },
      { role: 'user', content: 'And now?' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'u2', name: 'weather', args: { city: 'Oslo' } }], reasoning: 'Again.' },
    ]);
  });

  it('a message of tool results only adds no empty message; one without blocks is kept; the rest as they are', () => {
    expect(splitMessages([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u1', content: 1 }] }], sort, contentOf)).toEqual([
      { role: 'tool', tool_call_id: 'u1', content: 1 },
    ]);
    expect(splitMessages([{ role: 'user', content: [] }], sort, contentOf)).toEqual([{ role: 'user', content: '' }]);
    expect(splitMessages([{ role: 'user', content: 'plain' }], sort, contentOf)).toEqual([{ role: 'user', content: 'plain' }]);
    expect(splitMessages(undefined, sort, contentOf)).toEqual([]);
    expect(splitMessages('one', sort, contentOf)).toEqual(['one']);
  });
});

describe('MessageParts', () => {
  it('text content alone, or a list of parts once other parts are there', () => {
    const parts = new MessageParts();
    parts.texts.push('a', 'b');
    expect(parts.message('user')).toEqual({ role: 'user', content: 'ab' });
    parts.other.push({ type: 'image', url: 'x' });
    expect(parts.message('user')).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
        { type: 'image', url: 'x' },
      ],
    });
  });
});
