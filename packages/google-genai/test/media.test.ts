/**
 * Media in Gemini calls through `observeGoogleGenAI`, with the real `@google/genai` 3.x and 1.0
 * against the stand-in: `inlineData` parts (a ~200 KB PNG and a tiny one of under 1,024 base64
 * characters, a PDF) in the contents, the same PNG in a function response's parts, and an image
 * the model answers with, are each uploaded to
 * the obs server once (wire contract §5) and the generation holds their references, never their
 * base64; the references resolve back to the bytes.
 */
import { longestBase64Run, mediaReferencesIn, noisePng } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { observeGoogleGenAI } from '../src/index.js';
import { MODEL, response } from './fake-gemini.js';
import { API_KEY, json, SDKS, setup } from './harness.js';

const t = setup();

/** ~200 KB. */
const PNG = noisePng(260, 260, 29);
/** Under 1,024 base64 characters. */
const TINY_PNG = noisePng(4, 4, 6);
const OUT_PNG = noisePng(16, 16, 8);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
const inline = (mimeType: string, bytes: Buffer) => ({ inlineData: { mimeType, data: bytes.toString('base64') } });

for (const [label, GoogleGenAI] of SDKS) {
  describe(`media (${label})`, () => {
    it('inline images and a PDF in, an image out: references (one ask, PUT and report each) that resolve back', async () => {
      expect(TINY_PNG.toString('base64').length).toBeLessThan(1024);
      t.fake.reply('generateContent', { json: response([{ text: 'Here is a drawing.' }, inline('image/png', OUT_PNG)]) });
      const ai = observeGoogleGenAI(new GoogleGenAI({ apiKey: API_KEY, httpOptions: { baseUrl: t.fake.baseUrl } }));
      const { spans } = await t.traced(() =>
        ai.models.generateContent({
          model: MODEL,
          contents: [
            {
              role: 'user',
              parts: [{ text: 'What are these?' }, inline('image/png', PNG), inline('image/png', TINY_PNG), inline('application/pdf', PDF)],
            },
            { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'screenshot', args: {} } }] },
            {
              role: 'user',
              parts: [
                { functionResponse: { id: 'call_1', name: 'screenshot', response: { ok: true }, parts: [inline('image/png', PNG)] } },
              ],
            },
          ] as never,
        }),
      );
      // The model got the bytes themselves.
      expect(JSON.stringify(t.fake.calls[0]!.body)).toContain(TINY_PNG.toString('base64'));
      const input = json(spans[0]!, 'input');
      expect(input[0].content[0]).toEqual({ text: 'What are these?' });
      const [big, tiny, pdf] = [1, 2, 3].map((i) => mediaReferencesIn(input[0].content[i].inlineData.data));
      expect(big).toEqual([expect.objectContaining({ type: 'image/png', source: 'base64_data_uri' })]);
      expect(tiny).toEqual([expect.objectContaining({ type: 'image/png', source: 'base64_data_uri' })]);
      expect(pdf).toEqual([expect.objectContaining({ type: 'application/pdf', source: 'base64_data_uri' })]);
      // An image in a function response: a tool message with the same (one) upload.
      expect(input[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1', name: 'screenshot' });
      expect(input[2].content[0]).toEqual({ ok: true });
      expect(mediaReferencesIn(input[2].content[1].inlineData.data)[0]!.id).toBe(big[0]!.id);
      const output = json(spans[0]!, 'output');
      expect(output.content[0]).toEqual({ type: 'text', text: 'Here is a drawing.' });
      const out = mediaReferencesIn(output.content[1].inlineData.data);
      expect(out).toEqual([expect.objectContaining({ type: 'image/png' })]);

      const { server } = t.local;
      for (const [ref, bytes] of [
        [big, PNG],
        [tiny, TINY_PNG],
        [pdf, PDF],
        [out, OUT_PNG],
      ] as const) {
        expect(server.media.counts(ref[0]!.id)).toEqual({ asks: 1, uploads: 1, reports: 1 });
        expect(server.media.bytes(ref[0]!.id)?.equals(bytes)).toBe(true);
      }
      expect(longestBase64Run(server.spans())).toBeLessThan(1024);
      const resolved = await t.local.handle.client.media.resolveReferences({ obj: input, resolveWith: 'base64DataUri' });
      expect(resolved[0].content[2].inlineData.data).toBe(`data:image/png;base64,${TINY_PNG.toString('base64')}`);
    });
  });
}
