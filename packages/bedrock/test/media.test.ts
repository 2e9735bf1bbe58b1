/**
 * Media in Converse calls through `observeBedrock`, with the real SDK 3.x (HTTP/2) and 3.588
 * (HTTP/1.1) against the stand-in: image and document blocks carry their bytes (`source.bytes`, a
 * `Uint8Array`), which the export uploads to the obs server once each (wire contract §5, `source=
 * bytes`), a PNG in a tool result too; the generation's input holds their references, never the
 * bytes; the server holds the bytes the model got.
 */
import { longestBase64Run, mediaReferencesIn, noisePng } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { observeBedrock } from '../src/index.js';
import { converseOutput, MODEL } from './fake-bedrock.js';
import { clientOf, json, SDKS, setup } from './harness.js';

const t = setup();

/** ~200 KB. */
const PNG = new Uint8Array(noisePng(260, 260, 37));
const PDF = new Uint8Array(Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1'));

for (const [label, sdk] of SDKS) {
  describe(`media (${label})`, () => {
    // 3.588 has image blocks only: documents came later.
    const sdk3 = label === 'client-bedrock-runtime 3.x';

    it('image and document bytes, and an image in a tool result: uploaded once each, referenced, the same bytes on the server', async () => {
      t.fake.reply('converse', { json: converseOutput([{ text: 'Noise, and a tiny PDF.' }]) });
      const client = clientOf(sdk, t.fake.url);
      const { spans } = await t.traced(() =>
        observeBedrock(client).send(
          new sdk.ConverseCommand({
            modelId: MODEL,
            messages: [
              {
                role: 'user',
                content: [
                  { text: 'What are these?' },
                  { image: { format: 'png', source: { bytes: PNG } } },
                  ...(sdk3 ? [{ document: { format: 'pdf' as const, name: 'spec', source: { bytes: PDF } } }] : []),
                ],
              },
              { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'screenshot', input: {} } }] },
              {
                role: 'user',
                content: [
                  {
                    toolResult: {
                      toolUseId: 'tooluse_1',
                      content: [{ text: 'here' }, { image: { format: 'png', source: { bytes: PNG } } }],
                    },
                  },
                ],
              },
            ],
          }),
        ),
      );
      client.destroy();
      // The model got the bytes (base64 in Converse's JSON).
      expect(JSON.stringify(t.fake.calls[0]!.body)).toContain(Buffer.from(PNG).toString('base64'));
      const input = json(spans[0]!, 'input');
      expect(input[0].content[0]).toEqual({ text: 'What are these?' });
      const [png] = mediaReferencesIn(input[0].content[1].image.source.bytes);
      expect(png).toMatchObject({ type: 'image/png', source: 'bytes' });
      expect(input[2]).toMatchObject({ role: 'tool', tool_call_id: 'tooluse_1' });
      expect(mediaReferencesIn(input[2].content[1].image.source.bytes)[0]!.id).toBe(png!.id);
      const { server } = t.local;
      expect(server.media.counts(png!.id)).toEqual({ asks: 1, uploads: 1, reports: 1 });
      expect(server.media.bytes(png!.id)?.equals(PNG)).toBe(true);
      if (sdk3) {
        const [pdf] = mediaReferencesIn(input[0].content[2].document.source.bytes);
        expect(pdf).toMatchObject({ type: 'application/pdf', source: 'bytes' });
        expect(input[0].content[2].document).toMatchObject({ format: 'pdf', name: 'spec' });
        expect(server.media.counts(pdf!.id)).toEqual({ asks: 1, uploads: 1, reports: 1 });
        expect(server.media.bytes(pdf!.id)?.equals(PDF)).toBe(true);
      }
      expect(longestBase64Run(server.spans())).toBeLessThan(1024);
    });
  });
}
