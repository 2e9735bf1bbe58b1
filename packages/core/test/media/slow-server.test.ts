/**
 * Media under latency and at its limits, on the wire. A burst of 300 images at a server that
 * answers each ask in 200 ms keeps every reference (asks in flight, each span's wait counted from
 * its ask's departure); when asks do come too late, every medium that leaves as the marker is
 * counted in a line. A medium past the 50 MiB limit becomes the marker with its true size and one
 * line, and the rest of the value arrives intact; two media within the limit are both uploaded.
 */
import { noisePng, pngDataUri, setupObsServer } from '@obs/local-server/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startObservation } from '../../src/index.js';
import { MEDIA_QUEUE_MS, MEDIA_WAIT_MS } from '../../src/export/media/span-media.js';
import { captureLogs, only, perTestTracing, TRACING_KEYS } from '../tracing/harness.js';
import { referenceIn } from './helpers.js';

/** The span's waits for its media, shortened by a test that wants them to run out. */
const waits = vi.hoisted(() => ({ waitMs: 0, queueMs: 0 }));
vi.mock('../../src/export/media/span-media.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/export/media/span-media.js')>();
  class Waits extends original.SpanMedia {
    constructor(uploads: ConstructorParameters<typeof original.SpanMedia>[0]) {
      super(uploads, waits.waitMs || original.MEDIA_WAIT_MS, waits.queueMs || original.MEDIA_QUEUE_MS);
    }
  }
  return { ...original, SpanMedia: Waits };
});

const { server } = await setupObsServer(TRACING_KEYS).ready;
const install = perTestTracing(server);
afterEach(() => {
  server.clearFaults();
  waits.waitMs = waits.queueMs = 0;
});

const INPUT = 'obs.observation.input';
const MiB = 1024 * 1024;
const errors = (logs: { level: string; message: string }[]) => logs.filter((l) => l.level === 'error').map((l) => l.message);
/** Media counted in `dropped N media: ...` lines, by reason. */
function droppedMedia(lines: string[]): Record<string, number> {
  const counted: Record<string, number> = {};
  for (const line of lines) {
    const m = /dropped (\d+) (?:more )?media: (.*)$/.exec(line);
    if (m) counted[m[2]!] = (counted[m[2]!] ?? 0) + Number(m[1]);
  }
  return counted;
}

describe('a burst of images at a slow server', () => {
  it('300 images, every ask answered in 200 ms: all 300 keep their references, no line', async () => {
    expect([MEDIA_WAIT_MS, MEDIA_QUEUE_MS]).toEqual([5_000, 30_000]);
    const logs = captureLogs();
    server.media.injectFault('ask', { delayMs: 200, times: 300 });
    const tracing = install();
    const images = Array.from({ length: 300 }, (_, i) => noisePng(8, 8, i + 1));
    for (const [i, png] of images.entries()) startObservation(`image-${i}`, { input: { image: pngDataUri(png) } }).end();
    await tracing.flush();
    const ids = images.map((png, i) => {
      const ref = referenceIn(only(server, `image-${i}`), INPUT);
      expect(server.media.bytes(ref.id)?.equals(png)).toBe(true);
      return ref.id;
    });
    expect(new Set(ids).size).toBe(300);
    expect(server.media.asks).toHaveLength(300);
    expect(server.media.uploads).toHaveLength(300);
    expect(errors(logs)).toEqual([]);
  }, 30_000);

  it('asks answered too late: every medium that leaves as the marker is counted, by why; asks whose span left are not sent', async () => {
    waits.waitMs = 300;
    waits.queueMs = 600;
    const logs = captureLogs();
    server.media.injectFault('ask', { delayMs: 1_000, times: 100 });
    const tracing = install();
    const images = Array.from({ length: 40 }, (_, i) => noisePng(8, 8, 1000 + i));
    for (const [i, png] of images.entries()) startObservation(`late-${i}`, { input: { image: pngDataUri(png) } }).end();
    await tracing.flush();
    for (let i = 0; i < images.length; i++) {
      expect(JSON.parse(only(server, `late-${i}`).attributes[INPUT] as string)).toEqual({
        image: `[media upload failed: image/png, ${images[i]!.length} bytes]`,
      });
    }
    // Losses of one reason are summed into a later line; the shutdown says what is held back.
    await tracing.close();
    const counted = droppedMedia(errors(logs));
    // 16 asks in flight got no answer within 0.3 s of leaving; the rest never got a turn within 0.6 s.
    expect(counted).toEqual({ 'no answer to its ask within 0.3 s': 16, 'its ask waited 0.6 s for its turn': 24 });
    expect(server.media.asks).toHaveLength(16);
  }, 30_000);
});

describe('media past the limit', () => {
  /** `bytes` bytes that start as a PNG (its type is read from them), the rest zeros. */
  const pngOf = (bytes: number, seed: number) => {
    const out = Buffer.alloc(bytes);
    noisePng(4, 4, seed).copy(out);
    out.writeUInt32BE(seed, bytes - 4);
    return out;
  };

  it('one 60 MiB image: the marker with its true size and one line; the value is valid JSON and its later parts arrive', async () => {
    const logs = captureLogs();
    const tracing = install();
    const big = pngOf(60 * MiB, 1);
    startObservation('too-large', { input: { question: 'what is this?', image: pngDataUri(big), after: ['later', { n: 1 }] } }).end();
    await tracing.flush();
    const input = JSON.parse(only(server, 'too-large').attributes[INPUT] as string);
    expect(input).toEqual({
      question: 'what is this?',
      image: `[media upload failed: image/png, ${60 * MiB} bytes]`,
      after: ['later', { n: 1 }],
    });
    expect(server.media.asks).toHaveLength(0);
    expect(logs.filter((l) => l.level !== 'debug').map((l) => l.message)).toEqual([
      `[obs] media of ${60 * MiB} bytes (image/png) is larger than the 50 MiB limit: not uploaded, "[media upload failed: image/png, ${60 * MiB} bytes]" stands in its place`,
    ]);
  }, 60_000);

  it('two 30 MiB images in one value: both uploaded, both referenced, the rest intact', async () => {
    const logs = captureLogs();
    const tracing = install();
    const [a, b] = [pngOf(30 * MiB, 2), pngOf(30 * MiB, 3)];
    startObservation('two-large', { input: { a: pngDataUri(a), b: pngDataUri(b), tail: 'end' } }).end();
    await tracing.flush();
    const span = only(server, 'two-large');
    const input = JSON.parse(span.attributes[INPUT] as string);
    expect(input.tail).toBe('end');
    const ids = [input.a, input.b].map((ref: string) => /id=([^|]+)/.exec(ref)?.[1]);
    expect(server.media.bytes(ids[0]!)?.equals(a)).toBe(true);
    expect(server.media.bytes(ids[1]!)?.equals(b)).toBe(true);
    expect(server.media.uploads).toHaveLength(2);
    expect(errors(logs)).toEqual([]);
  }, 60_000);
});
