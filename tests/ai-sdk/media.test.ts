/**
 * Images sent through the Vercel AI SDK (image parts as bytes and as a data URL; a file part),
 * for AI SDK 5, 6 and 7 (each of 7's integrations), with the real `ai` packages and their mock
 * models: every span that carries the image (the model call's messages, obs's reading of them,
 * the call-level prompt) carries its reference, the bytes are uploaded once, and no base64 of it
 * reaches the trace.
 */
import { initObs } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { longestBase64Run, mediaReferencesIn, noisePng, pngDataUri, setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { spansBelowRoot } from './harness.js';
import { mockModel, telemetry, VARIANTS } from './variants.js';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });

/** ~120 KB. */
const PNG = noisePng(200, 200, 23);
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3000, 0x20), Buffer.from('\n%%EOF\n')]);

const traced = (fn: () => Promise<unknown>) => spansBelowRoot(local, fn);

const generationOf = (spans: DecodedSpan[]) => spans.find((s) => s.attributes['obs.observation.type'] === 'generation')!;
const referencesOf = (span: DecodedSpan) => mediaReferencesIn(String(span.attributes['obs.observation.input']));

for (const v of VARIANTS) {
  describe(v.name, () => {
    for (const [label, image] of [
      ['bytes', new Uint8Array(PNG)],
      ['a data URL', pngDataUri(PNG)],
    ] as const) {
      it(`an image part (${label}): the generation's input holds its reference, the bytes are uploaded once, no base64 is exported`, async () => {
        const { model } = mockModel(v, [{ text: 'A noisy square.' }]);
        const spans = await traced(() =>
          v.ai.generateText({
            model,
            messages: [
              {
                role: 'user',
                content: [
                  { type: 'text', text: 'What is this?' },
                  { type: 'image', image, mediaType: 'image/png' },
                ],
              },
            ],
            experimental_telemetry: telemetry(v),
          }),
        );
        const refs = referencesOf(generationOf(spans));
        expect(refs.map((r) => r.type)).toEqual(['image/png']);
        const { server } = local;
        expect(server.media.bytes(refs[0]!.id)?.equals(PNG)).toBe(true);
        expect(server.media.uploads).toHaveLength(1);
        expect(longestBase64Run(server.spans())).toBeLessThan(1024);
      });
    }

    it('a file part (a PDF as bytes) is uploaded as application/pdf', async () => {
      const { model } = mockModel(v, [{ text: 'A blank page.' }]);
      const spans = await traced(() =>
        v.ai.generateText({
          model,
          messages: [{ role: 'user', content: [{ type: 'file', data: new Uint8Array(PDF), mediaType: 'application/pdf' }] }],
          experimental_telemetry: telemetry(v),
        }),
      );
      const refs = referencesOf(generationOf(spans));
      expect(refs.map((r) => r.type)).toEqual(['application/pdf']);
      expect(local.server.media.bytes(refs[0]!.id)?.equals(PDF)).toBe(true);
      expect(longestBase64Run(local.server.spans())).toBeLessThan(1024);
    });
  });
}
