/**
 * One deadline for the whole handle, against the servers obs must survive (a closed port, a
 * black hole, a host name that does not resolve, a self-signed TLS server): `shutdown()` and
 * `flush()` of spans and scores together return within their bound whatever the server does,
 * and every span and score that did not arrive is counted, exactly, in a few log lines. Bounds
 * are the feature here, so wall time is asserted, with margins for a loaded machine.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { initObs, type ObsHandle, startObservation } from '../../src/index.js';
import { BAD_SERVERS, type BadServer } from '../support/bad-servers.js';
import { captureLogs, type LogLine, restoreLogger } from '../support/server.js';
import { accounted, obsLines } from './load.js';

const SPANS = 200;
/** Made 10 per turn over 30 turns: 30 batches of the default `flushAt`, as an app makes them. */
const SCORES = 300;
const SHUTDOWN_TIMEOUT_S = 2;
/** Slack for a loaded two-core machine on top of a bound. */
const MARGIN_MS = 1500;

let bad: BadServer | undefined;
let handle: ObsHandle | undefined;

afterEach(async () => {
  await handle?.shutdown({ timeoutMs: 0 });
  handle = undefined;
  await bad?.close();
  bad = undefined;
  trace.disable();
  context.disable();
  propagation.disable();
  restoreLogger();
});

/** obs pointed at `server`, with spans and scores made and handed to their queues. */
async function loaded(server: BadServer): Promise<{ handle: ObsHandle; logs: LogLine[] }> {
  const logs = captureLogs();
  handle = initObs({
    baseUrl: server.url,
    publicKey: 'pk-bounds',
    secretKey: 'sk-bounds',
    shutdownTimeout: SHUTDOWN_TIMEOUT_S,
    flushInterval: 0.05,
    flushOnExit: false,
  });
  for (let i = 0; i < SPANS; i++) startObservation(`bound-${i}`).end();
  for (let turn = 0; turn < SCORES / 10; turn++) {
    for (let i = 0; i < 10; i++) handle.client.score.create({ id: `score-${turn * 10 + i}`, traceId: 'a'.repeat(32), name: 'b', value: 1 });
    await new Promise((r) => setTimeout(r, 5));
  }
  // Let the first attempts fail, so the drains meet an outage (or a refusal) already going on.
  await new Promise((r) => setTimeout(r, 300));
  return { handle, logs };
}

describe.each(BAD_SERVERS.map((make) => [make.name, make] as const))('against %s', (_name, make) => {
  it(`shutdown() of ${SPANS} spans and ${SCORES} scores returns within shutdownTimeout, every one counted in a few lines`, async () => {
    bad = await make();
    const { handle: obs, logs } = await loaded(bad);
    const started = Date.now();
    await obs.shutdown();
    const took = Date.now() - started;
    handle = undefined;
    console.log(`[bounds] ${bad.label}: shutdown() took ${(took / 1000).toFixed(2)} s; ${obsLines(logs).length} lines`);
    expect(took).toBeLessThan(SHUTDOWN_TIMEOUT_S * 1000 + MARGIN_MS);
    expect(accounted(logs, 'spans')).toBe(SPANS);
    expect(accounted(logs, 'scores')).toBe(SCORES);
    expect(obsLines(logs).length).toBeLessThanOrEqual(4);
  });

  it('flush({ timeoutMs }) and flush() return within their bound; what they leave is still buffered and shutdown counts it', async () => {
    bad = await make();
    const { handle: obs, logs } = await loaded(bad);
    let started = Date.now();
    await obs.flush({ timeoutMs: 500 });
    const tookShort = Date.now() - started;
    started = Date.now();
    await obs.flush();
    const tookDefault = Date.now() - started;
    console.log(
      `[bounds] ${bad.label}: flush({ timeoutMs: 500 }) ${(tookShort / 1000).toFixed(2)} s, flush() ${(tookDefault / 1000).toFixed(2)} s`,
    );
    expect(tookShort).toBeLessThan(500 + MARGIN_MS);
    expect(tookDefault).toBeLessThan(SHUTDOWN_TIMEOUT_S * 1000 + MARGIN_MS);
    const timedOut = logs.filter((l) => /^\[obs\] flush timed out after/.test(l.message));
    // A refused certificate is not retried: nothing is left to wait for. (A name that does not
    // resolve is not retried either, but the resolver may take seconds to say so.)
    if (bad.label.includes('TLS')) expect(timedOut).toEqual([]);
    else if (!bad.label.includes('unresolvable')) {
      expect(timedOut.map((l) => l.message)).toEqual([
        expect.stringMatching(
          `flush timed out after 0.5 s: ${SPANS} spans, ${SCORES} scores not delivered yet; they stay buffered and are retried`,
        ),
        expect.stringMatching(`flush timed out after ${SHUTDOWN_TIMEOUT_S}.0 s: ${SPANS} spans, ${SCORES} scores not delivered yet`),
      ]);
    }
    await obs.shutdown({ timeoutMs: 200 });
    handle = undefined;
    expect(accounted(logs, 'spans')).toBe(SPANS);
    expect(accounted(logs, 'scores')).toBe(SCORES);
  });
});

describe('what fails for good fails fast', () => {
  it('a self-signed certificate: each batch is tried once (no retry), flush() returns at once, one line per kind', async () => {
    bad = await BAD_SERVERS[3]();
    const { handle: obs, logs } = await loaded(bad);
    const started = Date.now();
    await obs.flush();
    expect(Date.now() - started).toBeLessThan(MARGIN_MS);
    // One handshake for the span batch, and for the score batches sent before the first refusal
    // came back (at most 4 in flight); the certificate is not tried again for 5 s, so the other
    // score batches (30 in all) are refused without a connection.
    expect(bad.connections()).toBeLessThanOrEqual(1 + 4);
    await obs.shutdown();
    handle = undefined;
    const said = obsLines(logs);
    expect(said.filter((l) => / spans/.test(l))).toEqual([
      expect.stringMatching(/^dropped 200 spans: the TLS connection failed \(DEPTH_ZERO_SELF_SIGNED_CERT\)/),
    ]);
    // The first score batch at once, the rest of the interval summed when the shutdown ends.
    expect(said.filter((l) => / scores/.test(l)).length).toBeLessThanOrEqual(2);
    expect(accounted(logs, 'scores')).toBe(SCORES);
  });
});
