/**
 * The sender's preparation step for batches (compressing a batch before it is buffered): one
 * batch at a time, in the order handed over, counted as buffered meanwhile. A transport whose compression
 * takes longer for the first batch than for the second stands in for the thread pool (a large
 * batch gzipped there, a small one synchronously); what goes over the wire is covered by the
 * exporter's tests against the local server (delivery.test.ts, faults/).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_DELIVERY_LIMITS, Sender, type Batches, type DeliveryLimits } from '../../src/delivery/sender.js';
import { captureLogs, restoreLogger } from '../support/server.js';

/** A body of `n` bytes standing for `n` encoded spans. */
const body = (n: number) => () => new Uint8Array(n);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function transport(packMs: (size: number) => number) {
  const sent: number[] = [];
  let packing = 0;
  let mostPacking = 0;
  const t: Batches = {
    async pack(encoded) {
      mostPacking = Math.max(mostPacking, ++packing);
      await sleep(packMs(encoded.length));
      packing--;
      return encoded.subarray(0, 1);
    },
    split: async () => [],
    send: async () => ({ status: 200, text: '', retryAfter: null }),
    read(_tried, outcome, count) {
      sent.push(count);
      return outcome;
    },
  };
  return { t, sent, mostPacking: () => mostPacking };
}

/** A sender of batches over `t`, as the span exporter makes one. */
const sender = (t: Batches, limits?: DeliveryLimits) => new Sender({ unit: 'spans', target: 'test', keysHint: 'keys', limits, batches: t });

describe('a sender of batches: preparation', () => {
  it('packs one batch at a time and sends batches in the order they came, even when a later one packs faster', async () => {
    // The 100-span batch packs slowly, the others at once.
    const { t, sent, mostPacking } = transport((size) => (size === 100 ? 40 : 0));
    const queue = sender(t);
    const answered: number[] = [];
    for (const n of [100, 1, 2]) queue.enqueue(n, body(n), () => answered.push(n));
    // Until packed, the spans count as buffered, so a flush waits for them.
    let idle = false;
    void queue.settled().then(() => (idle = true));
    await sleep(10);
    expect(idle).toBe(false);
    expect(sent).toEqual([]);
    await queue.settled();
    expect(sent).toEqual([100, 1, 2]);
    expect(answered).toEqual([100, 1, 2]);
    expect(mostPacking()).toBe(1);
  });

  it('a batch whose compression fails is counted as lost, and the next ones still go', async () => {
    const { t, sent } = transport(() => 0);
    const pack = t.pack;
    t.pack = async (encoded) => {
      if (encoded.length === 3) throw new Error('zlib broke');
      return pack(encoded);
    };
    const logs = captureLogs();
    try {
      const queue = sender(t);
      const answers: [number, boolean][] = [];
      for (const n of [3, 4]) queue.enqueue(n, body(n), (ok) => answers.push([n, ok]));
      await queue.settled();
      expect(sent).toEqual([4]);
      expect(answers).toEqual([
        [3, false],
        [4, true],
      ]);
      expect(logs.filter((l) => l.level !== 'debug').map((l) => l.message)).toEqual([
        expect.stringMatching(/dropped 3 spans: they could not be compressed \(zlib broke\)/),
      ]);
    } finally {
      restoreLogger();
    }
  });

  it('batches still being packed count against the buffer bound: past it a new batch is dropped with one line', async () => {
    const { t, sent } = transport(() => 20);
    const logs = captureLogs();
    try {
      // Encoded size = span count here, so 250 bytes hold two batches of 100.
      const queue = sender(t, { ...DEFAULT_DELIVERY_LIMITS, maxBufferBytes: 250 });
      const answers: boolean[] = [];
      for (let i = 0; i < 3; i++) queue.enqueue(100, body(100), (ok) => answers.push(ok));
      await queue.settled();
      expect(sent).toEqual([100, 100]);
      expect(answers.sort()).toEqual([false, true, true]);
      expect(logs.filter((l) => l.level !== 'debug').map((l) => l.message)).toEqual([
        expect.stringMatching(/dropped 100 spans: the export buffer is full \(200 spans, 200 bytes waiting/),
      ]);
    } finally {
      restoreLogger();
    }
  });
});

describe('a sender of requests: lanes', () => {
  const answer = async () => ({ status: 200, text: '', retryAfter: null });

  it('a request in a lane with room starts at once, however many wait in a full lane before it', async () => {
    const s = new Sender({ unit: 'media', keysHint: '', lanes: { put: 1, report: 1 } });
    let release!: () => void;
    const hung = new Promise<void>((r) => (release = r));
    const puts = Array.from({ length: 1000 }, () => s.send({ lane: 'put', send: () => hung.then(answer) }));
    let reported = false;
    const report = s.send({ lane: 'report', send: answer }).then((end) => (reported = end.ok));
    await report;
    expect(reported).toBe(true);
    expect(s.queued).toBe(999);
    release();
    expect((await Promise.all(puts)).every((end) => end.ok)).toBe(true);
    expect(s.queued).toBe(0);
  });

  it('costs about the same per request for a burst eight times as large (a full lane is not walked again for every answer)', async () => {
    /** Milliseconds to send `n` requests through one lane of 4; the least of 3 runs. */
    const burst = async (n: number) => {
      let least = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 3; run++) {
        const s = new Sender({ unit: 'media', keysHint: '', lanes: { put: 4 } });
        const start = performance.now();
        await Promise.all(Array.from({ length: n }, () => s.send({ lane: 'put', send: answer })));
        least = Math.min(least, performance.now() - start);
      }
      return least;
    };
    await burst(1_500);
    const small = await burst(1_500);
    const large = await burst(12_000);
    // Linear: about 8 times as long (11 seen on a loaded machine); walking the whole line at every
    // answer made it about 64 times.
    expect(large / small).toBeLessThan(24);
  }, 60_000);
});
