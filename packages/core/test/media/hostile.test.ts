/**
 * Media detection never costs the app and never lies to it. Hostile text (a megabyte of
 * `;base64,`, of `data:`, of tiny data URIs, of truncation markers without their end, the tokens
 * of thousands of buffers) is scanned in time linear in the text, measured against the same scan
 * of a quarter of it in the same run, and arrives as it was given. What is not media stays text
 * (`data:` inside a word, a payload too short to be a file, a data URI inside another's payload),
 * and a server's hostile answers to an ask (a media id `..`, a `data:`, `file:` or `javascript:`
 * upload URL) leave the marker and one line, and nothing more is sent. Checked on the wire: spans,
 * asks, PUTs and reports counted.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { noisePng, pngDataUri, setupObsServer } from '@obs/local-server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startObservation } from '../../src/index.js';
import { findMedia, MIN_DATA_URI_CHARS } from '../../src/export/media/find-media.js';
import { MAX_MEDIA_PER_SPAN } from '../../src/export/media/span-media.js';
import { type CapturedBinary, captureBinaries, capturedBinaries } from '../../src/tracing/media-capture.js';
import { TRUNCATION_MARKER } from '../../src/util/capture.js';
import { captureLogs, only, perTestTracing, TRACING_KEYS } from '../tracing/harness.js';
import { budgetFor, linearGrowth } from '../support/yardstick.js';
import { referenceIn } from './helpers.js';

const { server } = await setupObsServer(TRACING_KEYS).ready;
const install = perTestTracing(server);
afterEach(() => server.clearFaults());

/** About a megabyte: under the default `maxValueChars` (1,000,000), so the value is exported whole. */
const MB = 960_000;
const INPUT = 'obs.observation.input';

function repeatTo(unit: string, size = MB): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** A stall of the event loop: its longest turn, and how long the watch lasted, in ms. */
interface Stall {
  max: number;
  tookMs: number;
}

/**
 * The longest the event loop was held while `text` went out as an observation's input (the media
 * step, the encoding, the in-process server's decoding), in the least of three runs: what it
 * costs, without one pause of a loaded machine. Each run's span is named `name`.
 */
async function stallOf(tracing: { flush(): Promise<void> }, name: string, text: string): Promise<Stall> {
  let least: Stall = { max: Number.POSITIVE_INFINITY, tookMs: 0 };
  for (let i = 0; i < 3; i++) {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const started = performance.now();
    delay.enable();
    startObservation(name, { input: text }).end();
    await tracing.flush();
    delay.disable();
    if (delay.max / 1e6 < least.max) least = { max: delay.max / 1e6, tookMs: performance.now() - started };
  }
  return least;
}

/**
 * How long this machine holds an idle event loop now, watched as long as `ms`: a loaded machine
 * stops a process for tens of ms at times, and a watch of seconds sees it (least of three).
 */
async function noiseOver(ms: number): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    await new Promise((r) => setTimeout(r, ms));
    delay.disable();
    least = Math.min(least, delay.max / 1e6);
  }
  return least;
}

/**
 * The bound of the event loop's longest turn while `text` went out (`stall`): what this machine
 * holds an idle event loop over as long a watch, plus the same for text of its length without
 * media (encoding, sending, the server's decoding), plus the bound of one pass over the text.
 */
async function wireBudgetFor(text: string, stall: Stall, plain: Stall): Promise<number> {
  return (await noiseOver(stall.tookMs)) + plain.max + budgetFor(text);
}

/** Distinct 24-character payloads: 40,000 tiny data URIs in a megabyte. */
function tinyDataUris(size = MB): string {
  const parts: string[] = [];
  for (let i = 0, length = 0; length < size; i++) {
    const part = `data:image/png;base64,${i.toString(36).padStart(MIN_DATA_URI_CHARS, 'A')}" `;
    parts.push(part);
    length += part.length;
  }
  return parts.join('');
}

/** A JSON array of `count` buffers as the serialiser writes it, and the binary data its tokens stand for. */
function buffers(count: number): { text: string; binaries: ReadonlyMap<string, CapturedBinary> } {
  const span = {};
  const hooks = captureBinaries(span);
  const tokens = Array.from({ length: count }, (_, i) =>
    hooks.binary?.(new Uint8Array([i % 256, 1, 2, 3]), '[binary 4 bytes, Uint8Array]'),
  );
  return { text: JSON.stringify(tokens), binaries: capturedBinaries(span)! };
}

/** Hostile text of about `size` characters. */
type Make = (size: number) => string;

const HOSTILE: Array<[string, Make]> = [
  ['a megabyte of ;base64,', (n) => repeatTo(';base64,', n)],
  ['one data: then a megabyte of ;base64,', (n) => `data:image/png${repeatTo(';base64,', n)}`],
  ['a megabyte of data:', (n) => repeatTo('data:', n)],
  ['a megabyte of data:a/b;base64,', (n) => repeatTo('data:a/b;base64,', n)],
  ['truncation markers without their end', (n) => repeatTo(`data:image/png;base64,AAAA${TRUNCATION_MARKER}`, n)],
  ['a short payload followed by a megabyte of backslashes', (n) => `data:image/png;base64,${'A'.repeat(20)}${'\\'.repeat(n)}`],
  ['line-wrapped payloads', (n) => repeatTo('data:image/png;base64,AAAAAAAAAAAAAAAAAAAAAAAAAAAA\\n', n)],
  ['a megabyte of base64', (n) => 'A'.repeat(n)],
  ['quoted runs of base64 of no known type', (n) => repeatTo(`"data":"${'A'.repeat(1100)}",`, n)],
  ['a megabyte of escaped quotes', (n) => repeatTo('\\"', n)],
  ['a megabyte of declared types, no brace', (n) => repeatTo('"mimeType":"image/png",', n)],
];

/** Timed only: media by the rules (one medium, the same base64 each time), found as fast as the rest. */
const TIMED: Array<[string, Make]> = [
  ...HOSTILE,
  ['quoted runs of base64 next to declared types', (n) => repeatTo(`"mime_type":"image/png","data":"${'A'.repeat(1100)}",`, n)],
  ['tiny distinct data URIs', tinyDataUris],
  ['declared types before one long data key', (n) => `${repeatTo('"mediaType":"image/png",', n / 960)}"data":"${'A'.repeat(n)}`],
  ['small declared objects', (n) => repeatTo('{"type":"file","mediaType":"image/png","data":"AAAAAAAAAAAAAAAAAAAAAAAAAAAA"},', n)],
];

describe('hostile text', () => {
  it.each(TIMED)('%s: found in time linear in the text (against a quarter of it, same run)', (_label, make) => {
    const whole = make(MB);
    const quarter = make(MB / 4);
    const { took, bound } = linearGrowth(
      () => findMedia(whole),
      () => findMedia(quarter),
      () => JSON.stringify(whole),
    );
    expect(took, `took ${took.toFixed(1)} ms, bound ${bound.toFixed(1)} ms`).toBeLessThan(bound);
  });

  it('a value of thousands of buffers: every token found, in time linear in the text (against a quarter of it, same run)', () => {
    const whole = buffers(8_000);
    const quarter = buffers(2_000);
    expect(findMedia(whole.text, whole.binaries)?.map((spot) => spot.binary)).toEqual([...whole.binaries.values()]);
    const { took, bound } = linearGrowth(
      () => findMedia(whole.text, whole.binaries),
      () => findMedia(quarter.text, quarter.binaries),
      () => JSON.stringify(whole.text),
    );
    expect(took, `took ${took.toFixed(1)} ms, bound ${bound.toFixed(1)} ms`).toBeLessThan(bound);
  });

  it('each of them as an observation input: exported exactly as given, no ask, the event loop never held past the bound', async () => {
    const tracing = install();
    const plain = await stallOf(tracing, 'plain', 'x'.repeat(MB));
    for (const [label, make] of HOSTILE) {
      const text = make(MB);
      const stall = await stallOf(tracing, label, text);
      const budget = await wireBudgetFor(text, stall, plain);
      expect(stall.max, `${label}: the event loop stalled ${stall.max.toFixed(1)} ms (bound ${budget.toFixed(1)} ms)`).toBeLessThan(budget);
      const spans = server.spansByName(label);
      expect(spans).toHaveLength(3);
      for (const span of spans) expect(span.attributes[INPUT] === text, `${label} arrived as given`).toBe(true);
    }
    expect(server.media.asks).toHaveLength(0);
  }, 90_000);

  it(`a megabyte of tiny distinct data URIs: ${MAX_MEDIA_PER_SPAN} asked for, the rest markers counted in lines`, async () => {
    // Its scan is timed above; its turns are paced by construction (media-texts.ts), and a wire
    // measure of many short turns over seconds is the machine's scheduling more than obs's work.
    const logs = captureLogs();
    const tracing = install();
    const text = tinyDataUris();
    const count = text.split('data:').length - 1;
    for (let i = 0; i < 2; i++) startObservation('tiny', { input: text }).end();
    await tracing.flush();
    const spans = server.spansByName('tiny');
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      const input = span.attributes[INPUT] as string;
      expect(input.match(/@@@obsMedia:/g)).toHaveLength(MAX_MEDIA_PER_SPAN);
      expect(input.match(/\[media upload failed: image\/png, 18 bytes\]/g)).toHaveLength(count - MAX_MEDIA_PER_SPAN);
    }
    // Each span asks for its own (the ask links the media to its observation); the bytes go once.
    expect(server.media.asks).toHaveLength(2 * MAX_MEDIA_PER_SPAN);
    expect(server.media.uploads).toHaveLength(MAX_MEDIA_PER_SPAN);
    // Losses of one reason are summed into a later line; the shutdown says what is held back.
    await tracing.close();
    const dropped = logs.filter((l) => l.level === 'error').map((l) => l.message);
    expect(dropped.join('\n')).toMatch(
      new RegExp(`^\\[obs\\] dropped ${count - MAX_MEDIA_PER_SPAN} media: its span holds more than ${MAX_MEDIA_PER_SPAN} media`),
    );
    expect(dropped.reduce((sum, line) => sum + Number(/dropped (\d+) (?:more )?media/.exec(line)?.[1] ?? 0), 0)).toBe(
      2 * (count - MAX_MEDIA_PER_SPAN),
    );
  }, 60_000);
});

describe('what is not media stays text', () => {
  const PNG = noisePng(20, 20, 3);
  const payload = PNG.toString('base64');

  it.each([
    ['data: inside a word', `metadata:application/json;base64,${payload}`],
    ['data: inside a word, in JSON', JSON.stringify({ note: `see xdata:image/png;base64,${payload}` })],
    ['a one-character payload', 'data:image/png;base64,A'],
    ['a payload too short to be a file', `data:image/png;base64,${'A'.repeat(MIN_DATA_URI_CHARS - 4)}`],
    ['a data URI inside the payload of another', `data:image/png;base64,data:image/png;base64,AAAA`],
  ])('%s: exported as given, nothing asked', async (label, text) => {
    const tracing = install();
    startObservation(label, { input: text }).end();
    await tracing.flush();
    expect(only(server, label).attributes[INPUT]).toBe(text);
    expect(server.media.asks).toHaveLength(0);
  });

  it('a data URI after a line break in JSON text, or after a quote, is media', async () => {
    const tracing = install();
    startObservation('escaped', { input: { text: `line one\n${pngDataUri(PNG)}`, quoted: `'${pngDataUri(PNG)}'` } }).end();
    await tracing.flush();
    const input = JSON.parse(only(server, 'escaped').attributes[INPUT] as string);
    expect(input.text).toMatch(/^line one\n@@@obsMedia:type=image\/png\|id=[^|]+\|source=base64_data_uri@@@$/);
    expect(input.quoted).toBe(`'${input.text.slice('line one\n'.length)}'`);
    // The same image twice in one field: one ask.
    expect(server.media.asks).toHaveLength(1);
  });
});

describe("a server's hostile answer to an ask", () => {
  const PNG = noisePng(30, 30, 9);
  const marker = `[media upload failed: image/png, ${PNG.length} bytes]`;

  it.each([
    ['a media id ..', { mediaId: '..', uploadUrl: null }, /no usable mediaId \("\.\."/],
    ['a media id with a slash', { mediaId: 'a/b', uploadUrl: null }, /no usable mediaId/],
    [
      'a data: upload URL',
      { mediaId: 'm1', uploadUrl: 'data:text/plain,hi' },
      /uploadUrl that is not an http\(s\) URL \("data:text\/plain,hi"\)/,
    ],
    ['a file: upload URL', { mediaId: 'm2', uploadUrl: 'file:///etc/passwd' }, /not an http\(s\) URL \("file:\/\/\/etc\/passwd"\)/],
    ['a javascript: upload URL', { mediaId: 'm3', uploadUrl: 'javascript:alert(1)' }, /not an http\(s\) URL/],
  ])('%s: the marker and one line; no upload, no report, no retry', async (label, body, line) => {
    const logs = captureLogs();
    server.media.injectFault('ask', { status: 200, body });
    const tracing = install();
    startObservation(label, { input: { image: pngDataUri(PNG) } }).end();
    await tracing.flush();
    expect(JSON.parse(only(server, label).attributes[INPUT] as string)).toEqual({ image: marker });
    expect(server.media.asks).toHaveLength(1);
    expect(server.media.uploads).toHaveLength(0);
    expect(server.media.reports).toHaveLength(0);
    // Nothing went anywhere else either: every request the server saw was the ask and the export.
    expect(server.requests.filter((r) => !r.path.startsWith('/api/public/otel/')).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/public/media',
    ]);
    const errors = logs.filter((l) => l.level === 'error').map((l) => l.message);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(line);
  });

  it('a well-formed answer after it: the reference as usual', async () => {
    const tracing = install();
    startObservation('fine', { input: { image: pngDataUri(PNG) } }).end();
    await tracing.flush();
    const ref = referenceIn(only(server, 'fine'), INPUT);
    expect(server.media.bytes(ref.id)?.equals(PNG)).toBe(true);
  });
});
