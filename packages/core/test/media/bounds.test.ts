/**
 * What bounds a span's wait for its media, and the bytes the media step holds: the whole job of
 * a medium (decoding, hashing, asking) within the span's wait, and the held-bytes limit checked
 * before a medium is decoded or hashed. Checked on the wire: the span arrives with the marker.
 */
import { noisePng, pngDataUri, setupObsServer } from '@obs/local-server/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startObservation } from '../../src/index.js';
import { hashMedia } from '../../src/export/media/hash.js';
import { only, perTestTracing, TRACING_KEYS } from '../tracing/harness.js';

vi.mock('../../src/export/media/hash.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/export/media/hash.js')>();
  return { ...original, hashMedia: vi.fn(original.hashMedia) };
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
