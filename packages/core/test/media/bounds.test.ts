/**
 * What bounds a span's wait for its media, and the bytes the media step holds: the whole job of
 * a medium (decoding, hashing, asking) within the span's wait, and the held-bytes limit checked
 * before a medium is decoded or hashed. Checked on the wire: the span arrives with the marker.
 */
import { noisePng, pngDataUri, setupObsServer } from '@obs/local-server/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startObservation } from '../../src/index.js';
import { hashMedia } from '../../src/export/media/hash.js';
import { captureLogs, only, perTestTracing, TRACING_KEYS } from '../tracing/harness.js';
import { referenceIn } from './helpers.js';

vi.mock('../../src/export/media/hash.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/export/media/hash.js')>();
  return { ...original, hashMedia: vi.fn(original.hashMedia) };
});

/** The held-bytes limit of the processor's uploads, small here: one of the test images fits, two do not. */
vi.mock('../../src/export/media/media-uploads.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/export/media/media-uploads.js')>();
  class SmallHold extends original.MediaUploads {
    constructor(options: ConstructorParameters<typeof original.MediaUploads>[0]) {
      super({ ...options, maxHeldBytes: 60_000 });
    }
  }
  return { ...original, MediaUploads: SmallHold };
});

const { server } = await setupObsServer(TRACING_KEYS).ready;
const install = perTestTracing(server);
afterEach(() => {
  server.clearFaults();
  vi.mocked(hashMedia).mockClear();
});

const PNG = noisePng(120, 120, 5);
const marker = `[media upload failed: image/png, ${PNG.length} bytes]`;

describe("a span's wait for its media", () => {
  it('a hash that never ends (a stuck worker) holds the span no longer than its wait: it leaves with the marker, no ask', async () => {
    vi.mocked(hashMedia).mockImplementationOnce(() => new Promise(() => {}));
    const tracing = install();
    startObservation('stuck-hash', { input: { image: pngDataUri(PNG) } }).end();
    await tracing.flush();
    const input = JSON.parse(only(server, 'stuck-hash').attributes['obs.observation.input'] as string);
    expect(input).toEqual({ image: marker });
    expect(hashMedia).toHaveBeenCalledTimes(1);
    expect(server.media.asks).toHaveLength(0);
  }, 20_000);
});

describe('the held-bytes limit', () => {
  it('a medium past it gets the marker before it is decoded or hashed, with one error line; the bytes are free again afterwards', async () => {
    const other = noisePng(120, 120, 6);
    expect(PNG.length + other.length).toBeGreaterThan(60_000);
    expect(Math.max(PNG.length, other.length)).toBeLessThan(60_000);
    const logs = captureLogs();
    const tracing = install();
    startObservation('two-images', { input: { first: pngDataUri(PNG), second: pngDataUri(other) } }).end();
    await tracing.flush();
    const input = JSON.parse(only(server, 'two-images').attributes['obs.observation.input'] as string);
    expect(input.second).toBe(`[media upload failed: image/png, ${other.length} bytes]`);
    expect(server.media.asks.map((ask) => (ask.body as { contentLength: number }).contentLength)).toEqual([PNG.length]);
    // Only the first was hashed: the second was refused before.
    expect(hashMedia).toHaveBeenCalledTimes(1);
    expect(logs.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([
      expect.stringMatching(/^\[obs\] dropped 1 media: 0\.1 MiB of media are waiting for upload already/),
    ]);

    startObservation('after', { input: { image: pngDataUri(other) } }).end();
    await tracing.flush();
    const ref = referenceIn(only(server, 'after'), 'obs.observation.input');
    expect(server.media.bytes(ref.id)?.equals(other)).toBe(true);
  });
});
