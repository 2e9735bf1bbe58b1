/**
 * Images in LangChain messages, with the real `@langchain/core` and a fake chat model: an
 * OpenAI-style `image_url` block, a standard base64 image block and a v1 `data`/`mimeType` block
 * each become a reference in the generation's input (and in the chain's), the bytes are
 * uploaded once, and no base64 reaches the trace.
 */
import { HumanMessage } from '@langchain/core/messages';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { longestBase64Run, mediaReferencesIn, noisePng, pngDataUri } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { CallbackHandler } from '../src/index.js';
import { attr, initTestObs, one, settle, setupObsServer } from './support.js';

const h = setupObsServer({ init: initTestObs });

/** ~120 KB. */
const PNG = noisePng(200, 200, 29);

describe('image blocks', () => {
  it.each([
    ['an image_url block (OpenAI style)', { type: 'image_url', image_url: { url: pngDataUri(PNG) } }],
    ['a base64 image block', { type: 'image', source_type: 'base64', data: PNG.toString('base64'), mime_type: 'image/png' }],
    ['a v1 image block', { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' }],
  ])('%s: a reference in the generation input, one upload, no base64 exported', async (_label, block) => {
    const handler = new CallbackHandler();
    const model = new FakeListChatModel({ responses: ['A noisy square.'] });
    await model.invoke([new HumanMessage({ content: [{ type: 'text', text: 'What is this?' }, block as never] })], {
      callbacks: [handler],
    });
    const spans = await settle(h);
    const gen = one(spans, 'FakeListChatModel');
    const refs = mediaReferencesIn(String(attr(gen, 'obs.observation.input')));
    expect(refs).toEqual([expect.objectContaining({ type: 'image/png', source: 'base64_data_uri' })]);
    expect(h.server.media.bytes(refs[0]!.id)?.equals(PNG)).toBe(true);
    expect(h.server.media.uploads).toHaveLength(1);
    expect(longestBase64Run(h.server.spans())).toBeLessThan(1024);
  });

  it('an image through a prompt template and a chain: every span that carries it carries the same reference', async () => {
    const handler = new CallbackHandler();
    const prompt = ChatPromptTemplate.fromMessages([
      ['system', 'You describe images.'],
      [
        'human',
        [
          { type: 'text', text: '{question}' },
          { type: 'image_url', image_url: { url: '{image}' } },
        ],
      ],
    ]);
    const chain = prompt.pipe(new FakeListChatModel({ responses: ['Noise.'] }));
    await chain.invoke({ question: 'What is this?', image: pngDataUri(PNG) }, { callbacks: [handler] });
    const spans = await settle(h);
    const ids = new Set(spans.flatMap((s) => mediaReferencesIn(JSON.stringify(s.attributes)).map((r) => r.id)));
    expect(ids.size).toBe(1);
    expect(mediaReferencesIn(String(attr(one(spans, 'FakeListChatModel'), 'obs.observation.input')))).toHaveLength(1);
    expect(h.server.media.uploads).toHaveLength(1);
    expect(longestBase64Run(h.server.spans())).toBeLessThan(1024);
  });
});
