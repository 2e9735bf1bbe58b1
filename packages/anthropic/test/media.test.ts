/**
 * Media in Messages API calls through `observeAnthropic`, with the real SDK 1.x and 0.50 against
 * the stand-in: base64 image blocks (a ~200 KB PNG and a tiny one of under 1,024 base64
 * characters), a base64 PDF document and an image inside a tool result are each uploaded to the
 * obs server once (wire contract §5) and the generation's input holds their references, never
 * their base64; the references resolve back to the bytes the model got.
 */
import { longestBase64Run, mediaReferencesIn, noisePng } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { observeAnthropic } from '../src/index.js';
import { message, text } from './fake-anthropic.js';
import { API_KEY, json, SDKS, setup } from './harness.js';

const t = setup();

/** ~200 KB. */
const PNG = noisePng(260, 260, 23);
/** Under 1,024 base64 characters. */
const TINY_PNG = noisePng(4, 4, 5);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
const image = (png: Buffer) => ({
  type: 'image' as const,
  source: { type: 'base64' as const, media_type: 'image/png' as const, data: png.toString('base64') },
});

for (const [label, Anthropic] of SDKS) {
  describe(`media in calls (${label})`, () => {
    const client = () => observeAnthropic(new Anthropic({ apiKey: API_KEY, baseURL: t.fake.baseURL, maxRetries: 0 }));

    it('images, a PDF and an image in a tool result become references (one ask, PUT and report each); they resolve back', async () => {
      expect(TINY_PNG.toString('base64').length).toBeLessThan(1024);
      t.fake.reply('/v1/messages', { json: message([text('Noise, and a tiny PDF.')]) });
      const { spans } = await t.traced(() =>
        client().messages.create({
          model: 'claude-test',
          max_tokens: 64,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'What are these?' },
                image(PNG),
                image(TINY_PNG),
                {
                  type: 'document',
                  source: { type: 'base64', media_type: 'application/pdf', data: PDF.toString('base64') },
                  title: 'spec',
                },
              ],
            },
            { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: {} }] },
            {
              role: 'user',
              content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'here' }, image(PNG)] }],
            },
          ],
        }),
      );
      // The model got the bytes themselves.
      expect(JSON.stringify(t.fake.calls[0]!.body)).toContain(TINY_PNG.toString('base64'));
      const input = json(spans[0]!, 'input');
      const [big, tiny, pdf] = [1, 2, 3].map((i) => mediaReferencesIn(input[0].content[i].source.data));
      expect(big).toEqual([expect.objectContaining({ type: 'image/png', source: 'base64_data_uri' })]);
      expect(tiny).toEqual([expect.objectContaining({ type: 'image/png', source: 'base64_data_uri' })]);
      expect(pdf).toEqual([expect.objectContaining({ type: 'application/pdf', source: 'base64_data_uri' })]);
      expect(input[0].content[0]).toEqual({ type: 'text', text: 'What are these?' });
      expect(input[0].content[3].title).toBe('spec');
      const inToolResult = mediaReferencesIn(input[2].content[1].source.data);
      expect(input[2]).toMatchObject({ role: 'tool', tool_call_id: 'toolu_1' });
      expect(inToolResult[0]!.id).toBe(big[0]!.id);

      const { server } = t.local;
      expect(server.media.counts(big[0]!.id)).toMatchObject({ uploads: 1, reports: 1 });
      expect(server.media.counts(tiny[0]!.id)).toEqual({ asks: 1, uploads: 1, reports: 1 });
      expect(server.media.counts(pdf[0]!.id)).toEqual({ asks: 1, uploads: 1, reports: 1 });
      expect(server.media.bytes(big[0]!.id)?.equals(PNG)).toBe(true);
      expect(server.media.bytes(tiny[0]!.id)?.equals(TINY_PNG)).toBe(true);
      expect(server.media.bytes(pdf[0]!.id)?.equals(PDF)).toBe(true);
      // No base64 in any span, the tiny image's included.
      expect(longestBase64Run(server.spans())).toBeLessThan(1024);
      expect(JSON.stringify(server.spans(), (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(TINY_PNG.toString('base64'));

      const resolved = await t.local.handle.client.media.resolveReferences({ obj: input, resolveWith: 'base64DataUri' });
      expect(resolved[0].content[2].source.data).toBe(`data:image/png;base64,${TINY_PNG.toString('base64')}`);
      expect(resolved[0].content[3].source.data).toBe(`data:application/pdf;base64,${PDF.toString('base64')}`);
    });
  });
}
