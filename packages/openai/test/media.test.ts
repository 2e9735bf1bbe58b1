/**
 * Multimodal calls through `observeOpenAI`, with the real `openai` 7 and 6 packages against a
 * local OpenAI-compatible server: the image (`image_url`, `input_image`) and audio
 * (`input_audio`) a call sends are uploaded to the obs server once and the generation's input
 * holds their references; no base64 reaches the trace; the references resolve back to the data.
 */
import { longestBase64Run, mediaReferencesIn, noisePng, pngDataUri } from '@obs/local-server/testing';
import OpenAI7 from 'openai';
import OpenAI6 from 'openai6';
import { describe, expect, it } from 'vitest';
import { observeOpenAI } from '../src/index.js';
import { completion, outputText, response } from './fake-openai.js';
import { API_KEY, json, setup } from './harness.js';

const t = setup();

/** ~200 KB. */
const PNG = noisePng(260, 260, 17);
const WAV = Buffer.concat([Buffer.from('RIFF\x24\x40\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(16_000, 3)]);

for (const [label, OpenAI] of [
  ['openai 7', OpenAI7],
  ['openai 6', OpenAI6],
] as const) {
  describe(`media in calls (${label})`, () => {
    const client = () => observeOpenAI(new OpenAI({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 }));

    it('chat.completions: a ~200 KB image and an audio clip become references (one ask, PUT and report each); they resolve back', async () => {
      t.fake.reply('/chat/completions', { json: completion({ content: 'A noisy square, and a hum.' }) });
      const messages = [
        {
          role: 'user' as const,
          content: [
            { type: 'text' as const, text: 'What is this?' },
            { type: 'image_url' as const, image_url: { url: pngDataUri(PNG), detail: 'low' as const } },
            { type: 'input_audio' as const, input_audio: { data: WAV.toString('base64'), format: 'wav' as const } },
          ],
        },
      ];
      const { spans } = await t.traced(() => client().chat.completions.create({ model: 'gpt-test', messages }));
      // The model got the image itself.
      expect(JSON.stringify(t.fake.calls[0]!.body)).toContain(PNG.toString('base64'));
      const [gen] = spans;
      const input = json(gen!, 'input');
      const image = mediaReferencesIn(input[0].content[1].image_url.url);
      const audio = mediaReferencesIn(input[0].content[2].input_audio.data);
      expect(image).toEqual([expect.objectContaining({ type: 'image/png', source: 'base64_data_uri' })]);
      expect(audio).toEqual([expect.objectContaining({ type: 'audio/wav', source: 'base64_data_uri' })]);
      const { server } = t.local;
      expect(server.media.counts(image[0]!.id)).toEqual({ asks: 1, uploads: 1, reports: 1 });
      expect(server.media.counts(audio[0]!.id)).toEqual({ asks: 1, uploads: 1, reports: 1 });
      expect(server.media.bytes(image[0]!.id)?.equals(PNG)).toBe(true);
      expect(server.media.bytes(audio[0]!.id)?.equals(WAV)).toBe(true);
      expect(longestBase64Run(server.spans())).toBeLessThan(1024);

      const resolved = await t.local.handle.client.media.resolveReferences({ obj: input, resolveWith: 'base64DataUri' });
      expect(resolved[0].content[1].image_url.url).toBe(pngDataUri(PNG));
      expect(resolved[0].content[2].input_audio.data).toBe(`data:audio/wav;base64,${WAV.toString('base64')}`);
    });

    it('the same image in a second call: no second PUT, the same reference', async () => {
      t.fake.reply('/chat/completions', { json: completion({ content: 'Noise.' }) });
      const ask = () =>
        client().chat.completions.create({
          model: 'gpt-test',
          messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: pngDataUri(PNG) } }] }],
        });
      const first = await t.traced(ask);
      const second = await t.traced(ask);
      const ref = (s: typeof first) => mediaReferencesIn(JSON.stringify(json(s.spans[0]!, 'input')))[0]!;
      expect(ref(second).id).toBe(ref(first).id);
      expect(t.local.server.media.counts(ref(first).id)).toEqual({ asks: 2, uploads: 1, reports: 1 });
    });

    it('responses.create: an input_image data URI becomes a reference', async () => {
      t.fake.reply('/responses', { json: response([outputText('A square.')]) });
      const { spans } = await t.traced(() =>
        client().responses.create({
          model: 'gpt-test',
          input: [
            {
              role: 'user',
              content: [
                { type: 'input_text', text: 'Describe it.' },
                { type: 'input_image', image_url: pngDataUri(PNG), detail: 'auto' },
              ],
            },
          ],
        }),
      );
      const refs = mediaReferencesIn(JSON.stringify(json(spans[0]!, 'input')));
      expect(refs).toEqual([expect.objectContaining({ type: 'image/png', source: 'base64_data_uri' })]);
      expect(t.local.server.media.bytes(refs[0]!.id)?.equals(PNG)).toBe(true);
      expect(longestBase64Run(t.local.server.spans())).toBeLessThan(1024);
    });
  });
}
