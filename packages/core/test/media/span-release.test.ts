/**
 * What an exported span keeps of its media: nothing. The app's binary data is written as its
 * reference on the wire, and the span (which the app may hold for long) lets go of the bytes.
 */
import { noisePng, setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { startObservation } from '../../src/index.js';
import { capturedBinaries } from '../../src/tracing/media-capture.js';
import { only, perTestTracing, TRACING_KEYS } from '../tracing/harness.js';
import { referenceIn } from './helpers.js';

const { server } = await setupObsServer(TRACING_KEYS).ready;
const install = perTestTracing(server);

/** Whether `target` can be reached from `root` through own properties (symbols too), arrays, Maps and Sets. */
function reaches(root: object, target: object): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [root];
  while (queue.length > 0) {
    const value = queue.pop();
    if (value === target) return true;
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (ArrayBuffer.isView(value)) {
      queue.push(value.buffer);
      continue;
    }
    if (value instanceof Map) for (const [k, v] of value) queue.push(k, v);
    if (value instanceof Set) for (const v of value) queue.push(v);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor && 'value' in descriptor) queue.push(descriptor.value);
    }
  }
  return false;
}

describe('an exported span', () => {
  it("holds no reference to the app's binary data once its reference is on the wire", async () => {
    const tracing = install();
    const png = noisePng(40, 40, 11);
    const obs = startObservation('released', { input: { role: 'user', content: [{ type: 'image', image: png }] } });
    const span = obs.otelSpan as object;
    expect(capturedBinaries(span)?.size).toBe(1);
    expect(reaches(span, png.buffer)).toBe(true);
    obs.end();
    await tracing.flush();
    const ref = referenceIn(only(server, 'released'), 'obs.observation.input');
    expect(server.media.bytes(ref.id)?.equals(png)).toBe(true);
    expect(capturedBinaries(span)).toBeUndefined();
    expect(reaches(span, png.buffer)).toBe(false);
  });
});
