/**
 * Media on the wire (wire contract 5): base64 data URIs, bare base64 parts with a declared type
 * and binary data in an observation's input, output and metadata are uploaded once per content
 * (ask, PUT, report) and exported as references; nothing of their base64 is exported.
 */
import { longestBase64Run, mediaReferencesIn, noisePng, pngDataUri, setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { ObsClient, startObservation } from '../../src/index.js';
import { captureLogs, only, perTestTracing, TRACING_KEYS } from '../tracing/harness.js';
import { referenceIn } from './helpers.js';

const { server } = await setupObsServer(TRACING_KEYS).ready;
const install = perTestTracing(server);

/** ~200 KB: 260 x 260 pixels of noise. */
const PNG = noisePng(260, 260, 7);

function openAiMessages(image: string, text = 'What is in this image?') {
  return [
    { role: 'system', content: 'You describe images.' },
    {
      role: 'user',
      content: [
        { type: 'text', text },
        { type: 'image_url', image_url: { url: image, detail: 'low' } },
      ],
    },
  ];
}

describe('media upload', () => {
  it('a ~200 KB PNG in an OpenAI-style message: one ask, one PUT, one report, a reference in the export, no base64', async () => {
    expect(PNG.length).toBeGreaterThan(190_000);
    const tracing = install();
    startObservation('vision', { input: openAiMessages(pngDataUri(PNG)), model: 'gpt-4o' }, { asType: 'generation' }).end();
    await tracing.flush();

    const span = only(server, 'vision');
    const ref = referenceIn(span, 'obs.observation.input');
    expect(ref).toMatchObject({ type: 'image/png', source: 'base64_data_uri' });
    expect(server.media.counts(ref.id)).toEqual({ asks: 1, uploads: 1, reports: 1 });
    expect(server.media.asks).toHaveLength(1);
    expect(server.media.uploads).toHaveLength(1);
    expect(server.media.bytes(ref.id)?.equals(PNG)).toBe(true);
    const ask = server.media.asks[0]!.body as Record<string, unknown>;
    expect(ask).toMatchObject({
      traceId: span.traceId,
      observationId: span.spanId,
      contentType: 'image/png',
      contentLength: PNG.length,
      field: 'input',
    });
    expect(server.media.get(ref.id)?.report).toMatchObject({ uploadHttpStatus: 200 });
    // The message reads as before, the image as its reference.
    const input = JSON.parse(span.attributes['obs.observation.input'] as string);
    expect(input[1].content[1]).toEqual({ type: 'image_url', image_url: { url: ref.text, detail: 'low' } });
    expect(longestBase64Run(server.spans())).toBeLessThan(1024);
  });

  it('the same image in a second observation: its own ask and the same reference, no second PUT', async () => {
    const tracing = install();
    startObservation('first', { input: openAiMessages(pngDataUri(PNG)) }, { asType: 'generation' }).end();
    await tracing.flush();
    startObservation('second', { input: openAiMessages(pngDataUri(PNG), 'And now?') }, { asType: 'generation' }).end();
    await tracing.flush();

    const first = referenceIn(only(server, 'first'), 'obs.observation.input');
    const second = referenceIn(only(server, 'second'), 'obs.observation.input');
    expect(second.id).toBe(first.id);
    expect(server.media.counts(first.id)).toEqual({ asks: 2, uploads: 1, reports: 1 });
    // The second ask links the media to the second observation.
    expect(
      server.media
        .get(first.id)
        ?.links.map((l) => l.observationId)
        .sort(),
    ).toEqual([only(server, 'first').spanId, only(server, 'second').spanId].sort());
    expect(longestBase64Run(server.spans())).toBeLessThan(1024);
  });

  it('the same image in input, output and metadata of one span: one PUT, a reference in each', async () => {
    const tracing = install();
    const uri = pngDataUri(PNG);
    startObservation('everywhere', { input: { image: uri }, output: [uri], metadata: { thumbnail: uri } }).end();
    await tracing.flush();
    const span = only(server, 'everywhere');
    const refs = ['obs.observation.input', 'obs.observation.output', 'obs.observation.metadata.thumbnail'].map((k) => referenceIn(span, k));
    expect(new Set(refs.map((r) => r.id)).size).toBe(1);
    // One ask per field (the server links each), one upload.
    expect(server.media.asks.map((a) => (a.body as { field: string }).field).sort()).toEqual(['input', 'metadata', 'output']);
    expect(server.media.uploads).toHaveLength(1);
    expect(longestBase64Run(server.spans())).toBeLessThan(1024);
  });

  it('binary data (Buffer, Uint8Array, ArrayBuffer) in an input is uploaded as bytes', async () => {
    const tracing = install();
    const png = noisePng(40, 40, 3);
    const copy = new Uint8Array(png);
    startObservation('binary', {
      input: {
        role: 'user',
        content: [
          { type: 'image', image: png },
          { type: 'file', data: copy.buffer, mediaType: 'image/png' },
        ],
      },
    }).end();
    await tracing.flush();
    const span = only(server, 'binary');
    const input = JSON.parse(span.attributes['obs.observation.input'] as string);
    const first = parseRef(input.content[0].image);
    const second = parseRef(input.content[1].data);
    expect(first).toMatchObject({ type: 'image/png', source: 'bytes' });
    expect(second.id).toBe(first.id);
    expect(server.media.bytes(first.id)?.equals(png)).toBe(true);
    expect(server.media.uploads).toHaveLength(1);
  });

  it('binary data next to a value that cannot be read (a throwing getter) is uploaded: at start and in update()', async () => {
    const tracing = install();
    const png = noisePng(40, 40, 13);
    const later = noisePng(40, 40, 14);
    const hostile = (bytes: Uint8Array) =>
      Object.defineProperty({ input: { role: 'user', content: [{ type: 'image', image: bytes }] } }, 'output', {
        enumerable: true,
        get: () => {
          throw new Error('output getter');
        },
      });
    const obs = startObservation('hostile-neighbour', hostile(png));
    obs.update(hostile(later) as never);
    obs.end();
    startObservation('hostile-start', hostile(png)).end();
    await tracing.flush();
    const atStart = JSON.parse(only(server, 'hostile-start').attributes['obs.observation.input'] as string);
    expect(server.media.bytes(parseRef(atStart.content[0].image).id)?.equals(png)).toBe(true);
    const updated = only(server, 'hostile-neighbour');
    expect(updated.attributes['obs.observation.output']).toBe('[unserialisable: output getter]');
    const input = JSON.parse(updated.attributes['obs.observation.input'] as string);
    expect(server.media.bytes(parseRef(input.content[0].image).id)?.equals(later)).toBe(true);
  });

  it('binary data of unknown type is uploaded as application/octet-stream; a Blob stays described', async () => {
    const tracing = install();
    const bytes = new Uint8Array(2048).map((_, i) => (i * 7) % 256);
    startObservation('octets', { input: { blob: new Blob(['x']), bytes }, metadata: { raw: bytes } }).end();
    await tracing.flush();
    const span = only(server, 'octets');
    const input = JSON.parse(span.attributes['obs.observation.input'] as string);
    expect(input.blob).toBe('[binary 1 bytes, Blob]');
    const ref = parseRef(input.bytes);
    expect(ref).toMatchObject({ type: 'application/octet-stream', source: 'bytes' });
    expect(span.attributes['obs.observation.metadata.raw']).toBe(ref.text);
    expect(new Uint8Array(server.media.bytes(ref.id)!)).toEqual(bytes);
  });

  it('bare base64 parts with a declared type (LangChain, AI SDK, Anthropic shapes) and sniffed audio', async () => {
    const tracing = install();
    const png = noisePng(30, 30, 5);
    const wav = Buffer.concat([Buffer.from('RIFF\x24\x10\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(4000, 1)]);
    const b64 = png.toString('base64');
    startObservation('parts', {
      input: [
        { type: 'image', source_type: 'base64', data: b64, mime_type: 'image/png' },
        { type: 'file', mediaType: 'image/png', data: b64 },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64 } },
        { type: 'input_audio', input_audio: { data: wav.toString('base64'), format: 'wav' } },
      ],
    }).end();
    await tracing.flush();
    const input = JSON.parse(only(server, 'parts').attributes['obs.observation.input'] as string);
    const refs = [input[0].data, input[1].data, input[2].source.data, input[3].input_audio.data].map(parseRef);
    expect(refs.map((r) => r.type)).toEqual(['image/png', 'image/png', 'image/png', 'audio/wav']);
    expect(server.media.bytes(refs[3]!.id)?.equals(wav)).toBe(true);
    expect(server.media.uploads).toHaveLength(2);
  });

  it('media larger than the 1,000,000-character value limit arrives whole: a data URI, and bare base64 in a part', async () => {
    const tracing = install();
    const big = noisePng(700, 700, 31);
    expect(big.toString('base64').length).toBeGreaterThan(1_000_000);
    startObservation('whole', {
      input: [
        { type: 'text', text: 'a long question '.repeat(40_000) },
        { type: 'image', source_type: 'base64', data: big.toString('base64'), mime_type: 'image/png' },
      ],
      output: { image: pngDataUri(big), note: 'a long answer '.repeat(40_000) },
    }).end();
    await tracing.flush();
    const span = only(server, 'whole');
    const a = referenceIn(span, 'obs.observation.input');
    const b = referenceIn(span, 'obs.observation.output');
    expect(b.id).toBe(a.id);
    expect(server.media.bytes(a.id)?.equals(big)).toBe(true);
    expect(longestBase64Run(server.spans())).toBeLessThan(1024);
  });

  it('long base64 that is not media (no known format, no declared type) stays as it is; text without media makes no ask', async () => {
    const tracing = install();
    const opaque = Buffer.alloc(3000, 0x41).toString('base64');
    startObservation('not-media', { input: { token: opaque, prose: 'a '.repeat(5000) }, output: 'data:text/plain;charset=utf-8,hi' }).end();
    await tracing.flush();
    const input = JSON.parse(only(server, 'not-media').attributes['obs.observation.input'] as string);
    expect(input.token).toBe(opaque);
    expect(server.media.asks).toHaveLength(0);
  });

  it('a data URI whose base64 stops before its string ends (a line wrap, base64url) is no media: left as it is, never uploaded cut', async () => {
    const tracing = install();
    const whole = pngDataUri(PNG);
    const comma = whole.indexOf(',') + 1;
    const payload = whole.slice(comma);
    const wrapped = whole.slice(0, comma) + (payload.match(/.{1,76}/g) ?? []).join('\n');
    const url = whole.slice(0, comma) + payload.replaceAll('+', '-').replaceAll('/', '_');
    expect(url).not.toBe(whole);
    const input = { wrapped, url, whole };
    startObservation('broken-runs', { input }).end();
    await tracing.flush();
    const exported = JSON.parse(only(server, 'broken-runs').attributes['obs.observation.input'] as string);
    expect(exported.wrapped).toBe(wrapped);
    expect(exported.url).toBe(url);
    // The whole one beside them is media as usual: one ask, for all its bytes.
    const [ref] = mediaReferencesIn(exported.whole);
    expect(server.media.asks.map((ask) => (ask.body as { contentLength: number }).contentLength)).toEqual([PNG.length]);
    expect(server.media.bytes(ref!.id)?.equals(PNG)).toBe(true);
  });

  it('a data URI inside text (markdown image, then more text) is media: the reference stands in the text', async () => {
    const tracing = install();
    const chart = noisePng(16, 16, 21);
    const text = `Here it is: ![chart](${pngDataUri(chart)}) and a caption.`;
    startObservation('markdown', { output: text }).end();
    await tracing.flush();
    const exported = only(server, 'markdown').attributes['obs.observation.output'] as string;
    const [ref] = mediaReferencesIn(exported);
    expect(exported).toBe(`Here it is: ![chart](${ref!.text}) and a caption.`);
    expect(server.media.bytes(ref!.id)?.equals(chart)).toBe(true);
  });

  it('the mask sees the data URI as given; what it keeps is uploaded, what it removes never is', async () => {
    const seen: unknown[] = [];
    const tracing = install({
      mask: ({ data }) => {
        seen.push(data);
        return typeof data === 'object' && data !== null && 'secret' in data ? { ...data, secret: '***' } : data;
      },
    });
    const kept = noisePng(20, 20, 11);
    const secret = noisePng(20, 20, 12);
    startObservation('masked', { input: { kept: pngDataUri(kept), secret: pngDataUri(secret) } }).end();
    await tracing.flush();
    expect(seen).toContainEqual({ kept: pngDataUri(kept), secret: pngDataUri(secret) });
    const input = JSON.parse(only(server, 'masked').attributes['obs.observation.input'] as string);
    expect(input.secret).toBe('***');
    expect(server.media.bytes(parseRef(input.kept).id)?.equals(kept)).toBe(true);
    expect(server.media.uploads).toHaveLength(1);
  });

  it('the value cap cuts after media was replaced: a 1.5 MB image is uploaded whole, the rest of the value is cut', async () => {
    const tracing = install({ maxValueChars: 5000 });
    const big = noisePng(720, 720, 2);
    expect(big.length).toBeGreaterThan(1_500_000);
    startObservation('capped', { input: { image: pngDataUri(big), notes: 'n'.repeat(10_000) } }).end();
    await tracing.flush();
    const text = only(server, 'capped').attributes['obs.observation.input'] as string;
    expect(text.length).toBeLessThan(5200);
    expect(text).toContain('truncated by obs');
    const ref = /@@@obsMedia:type=image\/png\|id=([^|]+)\|source=base64_data_uri@@@/.exec(text);
    expect(server.media.bytes(ref![1]!)?.equals(big)).toBe(true);
  });

  it('media larger than 50 MiB: the marker and one log line, no ask', async () => {
    const logs = captureLogs();
    const tracing = install();
    const huge = Buffer.alloc(50 * 1024 * 1024 + 1);
    huge.set(noisePng(4, 4), 0);
    startObservation('huge-1', { input: { image: huge } }).end();
    startObservation('huge-2', { input: { image: huge } }).end();
    await tracing.flush();
    for (const name of ['huge-1', 'huge-2']) {
      expect(JSON.parse(only(server, name).attributes['obs.observation.input'] as string)).toEqual({
        image: `[media upload failed: image/png, ${huge.length} bytes]`,
      });
    }
    expect(server.media.asks).toHaveLength(0);
    expect(logs.filter((l) => l.message.includes('larger than the 50 MiB limit'))).toHaveLength(1);
  });

  it('media off (`media: false`): data URIs exported as they are, binary data as its description', async () => {
    const tracing = install({ media: false });
    const png = noisePng(10, 10, 9);
    startObservation('off', { input: { uri: pngDataUri(png), bytes: png } }).end();
    await tracing.flush();
    const input = JSON.parse(only(server, 'off').attributes['obs.observation.input'] as string);
    expect(input).toEqual({ uri: pngDataUri(png), bytes: `[binary ${png.length} bytes, Buffer]` });
    expect(server.media.asks).toHaveLength(0);
  });

  it('client.media.resolveReferences turns the exported value back into the data URIs', async () => {
    const tracing = install();
    const png = noisePng(50, 50, 21);
    const messages = openAiMessages(pngDataUri(png));
    startObservation('round-trip', { input: messages }, { asType: 'generation' }).end();
    await tracing.flush();
    const exported = JSON.parse(only(server, 'round-trip').attributes['obs.observation.input'] as string);
    expect(JSON.stringify(exported)).not.toContain('base64,');
    const client = new ObsClient({ baseUrl: server.url, publicKey: server.publicKey, secretKey: server.secretKey });
    const resolved = await client.media.resolveReferences({ obj: exported, resolveWith: 'base64DataUri' });
    expect(resolved).toEqual(messages);
  });
});

function parseRef(text: string): { type: string; id: string; source: string; text: string } {
  const m = /^@@@obsMedia:type=([^|]+)\|id=([^|]+)\|source=([^@]+)@@@$/.exec(text);
  if (!m) throw new Error(`not a media reference: ${text.slice(0, 200)}`);
  return { type: m[1]!, id: m[2]!, source: m[3]!, text };
}
