/**
 * Media when a step of the protocol fails (wire contract 5): a failed ask leaves the marker, a
 * failed upload or report the reference (the ask named the media); never the base64, the span
 * always arrives, each failure is counted in the outage log, and nothing is retried for ever.
 * The media step runs off the app's `span.end()`, and media counts toward the drain deadline.
 */
import { longestBase64Run, noisePng, pngDataUri, setupObsServer } from '@obs/local-server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startObservation } from '../../src/index.js';
import { MEDIA_STATE } from '../../src/tracing/span-slots.js';
import { captureLogs, only, perTestTracing, TRACING_KEYS } from '../tracing/harness.js';
import { referenceIn } from './helpers.js';

const { server } = await setupObsServer(TRACING_KEYS).ready;
const install = perTestTracing(server);
afterEach(() => server.clearFaults());

const PNG = noisePng(120, 120, 4);
const marker = `[media upload failed: image/png, ${PNG.length} bytes]`;

function endWithImage(name: string): void {
  startObservation(name, { input: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: pngDataUri(PNG) } }] }] }).end();
}

function exportedInput(name: string): unknown {
  return JSON.parse(only(server, name).attributes['obs.observation.input'] as string);
}

const errors = (logs: { level: string; message: string }[]) => logs.filter((l) => l.level === 'error').map((l) => l.message);

describe('a failed ask', () => {
  it('refused (400): the marker in place of the image, one ask, the span exported, one error line', async () => {
    const logs = captureLogs();
    server.media.injectFault('ask', { status: 400, body: { message: 'bad ask' } });
    const tracing = install();
    endWithImage('ask-400');
    await tracing.flush();
    expect(exportedInput('ask-400')).toEqual([{ role: 'user', content: [{ type: 'image_url', image_url: { url: marker } }] }]);
    expect(server.media.asks).toHaveLength(1);
    expect(server.media.uploads).toHaveLength(0);
    expect(errors(logs)).toEqual([expect.stringMatching(/^\[obs\] dropped 1 media: the media upload was not accepted \(ask: HTTP 400/)]);
    expect(longestBase64Run(server.spans())).toBeLessThan(1024);
  });

  it('failing (503) three times: retried three times, never more, then the marker', async () => {
    const logs = captureLogs();
    server.media.injectFault('ask', { status: 503, times: 10 });
    const tracing = install();
    endWithImage('ask-503');
    await tracing.flush();
    expect(exportedInput('ask-503')).toEqual([{ role: 'user', content: [{ type: 'image_url', image_url: { url: marker } }] }]);
    expect(server.media.asks).toHaveLength(3);
    expect(errors(logs).filter((m) => m.includes('media'))).toHaveLength(1);
  });

  it('failing once: the retry is answered and the reference exported', async () => {
    server.media.injectFault('ask', { status: 503, times: 1 });
    const tracing = install();
    endWithImage('ask-retry');
    await tracing.flush();
    const ref = referenceIn(only(server, 'ask-retry'), 'obs.observation.input');
    expect(server.media.counts(ref.id)).toEqual({ asks: 1, uploads: 1, reports: 1 });
    expect(server.media.asks).toHaveLength(2);
    expect(server.media.bytes(ref.id)?.equals(PNG)).toBe(true);
  });

  it('refused keys (401) once: retried like every kind retries it (keys may be rotated while the app runs), then the reference', async () => {
    server.media.injectFault('ask', { status: 401, times: 1 });
    const tracing = install();
    endWithImage('ask-401');
    await tracing.flush();
    const ref = referenceIn(only(server, 'ask-401'), 'obs.observation.input');
    expect(server.media.asks).toHaveLength(2);
    expect(server.media.bytes(ref.id)?.equals(PNG)).toBe(true);
  });

  it('unanswered (a black hole): the span waits 5 s at most, then leaves with the marker', async () => {
    server.media.injectFault('ask', { hang: true, times: 10 });
    const tracing = install();
    const started = Date.now();
    endWithImage('ask-hang');
    await tracing.flush();
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    expect(exportedInput('ask-hang')).toEqual([{ role: 'user', content: [{ type: 'image_url', image_url: { url: marker } }] }]);
    expect(server.spans()).toHaveLength(1);
  }, 20_000);
});

describe('a failed upload or report', () => {
  it('upload failing (503) three times: the reference stays (the ask named it), the report says 503, one error line', async () => {
    const logs = captureLogs();
    server.media.injectFault('upload', { status: 503, times: 10 });
    const tracing = install();
    endWithImage('put-503');
    await tracing.flush();
    const ref = referenceIn(only(server, 'put-503'), 'obs.observation.input');
    expect(server.media.counts(ref.id)).toEqual({ asks: 1, uploads: 3, reports: 1 });
    expect(server.media.bytes(ref.id)).toBeUndefined();
    expect(server.media.get(ref.id)?.report).toMatchObject({ uploadHttpStatus: 503, uploadHttpError: expect.stringContaining('HTTP 503') });
    expect(errors(logs)).toEqual([expect.stringMatching(/^\[obs\] dropped 1 media: the media upload failed \(upload: HTTP 503/)]);
    expect(longestBase64Run(server.spans())).toBeLessThan(1024);
  });

  it('upload refused (400): not retried', async () => {
    server.media.injectFault('upload', { status: 400, times: 10 });
    const tracing = install();
    endWithImage('put-400');
    await tracing.flush();
    const ref = referenceIn(only(server, 'put-400'), 'obs.observation.input');
    expect(server.media.counts(ref.id)).toEqual({ asks: 1, uploads: 1, reports: 1 });
  });

  it('upload connection reset: retried, and the second attempt uploads', async () => {
    server.media.injectFault('upload', { reset: true, times: 1 });
    const tracing = install();
    endWithImage('put-reset');
    await tracing.flush();
    const ref = referenceIn(only(server, 'put-reset'), 'obs.observation.input');
    expect(server.media.counts(ref.id)).toMatchObject({ uploads: 2, reports: 1 });
    expect(server.media.bytes(ref.id)?.equals(PNG)).toBe(true);
  });

  it('report failing (500) three times: the media is uploaded and referenced, the failure counted', async () => {
    const logs = captureLogs();
    server.media.injectFault('report', { status: 500, times: 10 });
    const tracing = install();
    endWithImage('report-500');
    await tracing.flush();
    const ref = referenceIn(only(server, 'report-500'), 'obs.observation.input');
    expect(server.media.counts(ref.id)).toEqual({ asks: 1, uploads: 1, reports: 3 });
    expect(server.media.bytes(ref.id)?.equals(PNG)).toBe(true);
    expect(errors(logs)).toEqual([
      expect.stringMatching(/^\[obs\] dropped 1 media: the media upload's report was not accepted \(report: HTTP 500/),
    ]);
  });

  it('the same image in two spans while its upload is slow: one PUT', async () => {
    server.media.injectFault('upload', { delayMs: 300, times: 5 });
    const tracing = install();
    // Both asks are answered (uploadUrl set: the bytes are not there yet) before the upload ends.
    endWithImage('slow-1');
    endWithImage('slow-2');
    await tracing.flush();
    const a = referenceIn(only(server, 'slow-1'), 'obs.observation.input');
    const b = referenceIn(only(server, 'slow-2'), 'obs.observation.input');
    expect(b.id).toBe(a.id);
    expect(server.media.asks.map((ask) => ask.uploadUrl === null)).toEqual([false, false]);
    expect(server.media.counts(a.id)).toEqual({ asks: 2, uploads: 1, reports: 1 });
  });

  it('the same image in two spans while its first upload fails: the second ask uploads the bytes itself', async () => {
    // The first PUT is refused (not retried) after both asks were answered with an upload URL.
    server.media.injectFault('upload', { delayMs: 300, status: 400, times: 1 });
    const tracing = install();
    endWithImage('failing-1');
    endWithImage('failing-2');
    await tracing.flush();
    const a = referenceIn(only(server, 'failing-1'), 'obs.observation.input');
    const b = referenceIn(only(server, 'failing-2'), 'obs.observation.input');
    expect(b.id).toBe(a.id);
    expect(server.media.asks.map((ask) => ask.uploadUrl === null)).toEqual([false, false]);
    expect(server.media.counts(a.id)).toEqual({ asks: 2, uploads: 2, reports: 2 });
    expect(server.media.bytes(a.id)?.equals(PNG)).toBe(true);
    expect(server.media.get(a.id)?.report).toMatchObject({ uploadHttpStatus: 200 });
  });
});

describe('off the request path, within the deadline', () => {
  it("span.end() returns before the span's media was looked at; the export finds it afterwards", async () => {
    const tracing = install();
    const obs = startObservation('deferred', { input: { image: pngDataUri(PNG) } });
    obs.end();
    expect((obs.otelSpan as unknown as Record<symbol, unknown>)[MEDIA_STATE]).toBeUndefined();
    expect(server.media.asks).toHaveLength(0);
    await tracing.flush();
    expect((obs.otelSpan as unknown as Record<symbol, unknown>)[MEDIA_STATE]).toBeDefined();
    referenceIn(only(server, 'deferred'), 'obs.observation.input');
  });

  it('a shutdown whose deadline passes while an upload hangs: bounded, the span delivered, the media counted in one line', async () => {
    const logs = captureLogs();
    server.media.injectFault('upload', { hang: true, times: 10 });
    const tracing = install({ shutdownTimeout: 1 });
    endWithImage('deadline');
    const started = Date.now();
    await tracing.processor.flushWithin(1000);
    expect(Date.now() - started).toBeLessThan(2500);
    referenceIn(only(server, 'deadline'), 'obs.observation.input');
    expect(errors(logs)).toEqual([
      expect.stringMatching(
        /^\[obs\] shutdown gave up after 1\.0 s: 0 spans dropped unsent, 0 in flight.*; 0 media dropped unsent, 1 in flight/,
      ),
    ]);
  });

  it('a shutdown whose deadline passes while an ask hangs: the span leaves with the marker, counted with the spans', async () => {
    const logs = captureLogs();
    server.media.injectFault('ask', { hang: true, times: 10 });
    const tracing = install({ shutdownTimeout: 1 });
    endWithImage('deadline-ask');
    await tracing.processor.flushWithin(1000);
    expect(errors(logs)).toEqual([
      expect.stringMatching(/^\[obs\] shutdown gave up after 1\.0 s: 1 spans dropped unsent.*; 0 media dropped unsent, 1 in flight/),
    ]);
    server.clearFaults();
    // Abandoned, the span was handed over with the marker and dropped with its batch: counted above.
    expect(server.spans()).toHaveLength(0);
  });
});
