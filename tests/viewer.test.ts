/**
 * The local server's trace viewer in a real headless Chromium: a trace the SDK sends appears in
 * the list without a reload, opening it shows the tree with the right nesting and the
 * generation's chat messages, filters and full-text search work, sessions read as a
 * conversation, durations read exactly at every scale, a trace copies as JSON, the prompt,
 * dataset and run comparison pages show what the SDK made, and a server with a data directory
 * shows its traces after a restart; every page opens with data on it and shows no `[object `,
 * `undefined` or `NaN`, with costs, plurals and dataset names right, and the SDK's platform
 * links (getTraceUrl, an experiment's format()) open the trace and the run. Screenshots are
 * written for people to look at (test-output/viewer-*.png; viewer-trace.png is the README's
 * docs/viewer.png).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { initObs, propagateAttributes, startActiveObservation, startObservation } from '@obs/core';
import { startObsServer } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, cspViolationsOf, openViewerBrowser } from './support/chromium.js';

const OUT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-output');

const local = setupObsServer({ reset: false, init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!CHROMIUM) return;
  ({ browser, page } = await openViewerBrowser());
});

afterAll(async () => {
  await browser?.close();
});

/** A chat turn as an app would trace it: a request root, an agent, a tool, a generation with messages. */
async function chatTurn(user: string, session: string, question: string, answer: string, fail = false): Promise<string> {
  let traceId = '';
  await propagateAttributes({ userId: user, sessionId: session, tags: ['support'] }, () =>
    startActiveObservation('POST /chat/:id', async (root) => {
      traceId = root.traceId;
      root.update({ input: { question } });
      await startActiveObservation(
        'support-agent',
        async () => {
          startObservation('lookup-order', { input: { orderId: 42 }, output: { status: 'shipped' } }, { asType: 'tool' }).end();
          const gen = startObservation(
            'chat-model',
            {
              model: 'gpt-4o-mini',
              modelParameters: { temperature: 0.2 },
              input: [
                { role: 'system', content: 'You are a helpful support agent.' },
                { role: 'user', content: question },
              ],
            },
            { asType: 'generation' },
          );
          gen.update({
            output: { role: 'assistant', content: answer, tool_calls: [{ id: 'c1', name: 'lookup-order', args: { orderId: 42 } }] },
            usageDetails: { input: 31, output: 12, total: 43 },
            costDetails: { total: 0.00042 },
          });
          if (fail) gen.update({ level: 'ERROR', statusMessage: 'model timed out' });
          gen.end();
        },
        { asType: 'agent' },
      );
      root.update({ output: { answer } });
    }),
  );
  local.handle.client.score.create({ traceId, name: 'helpful', value: 1 });
  await local.handle.flush();
  return traceId;
}

/** A real PNG of `width` x `height` red pixels (RGBA scanlines, deflated, each chunk with its CRC-32). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(typed.length + 8);
    out.writeUInt32BE(data.length, 0);
    typed.copy(out, 4);
    out.writeUInt32BE(crc32(typed), typed.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter set, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [255, 0, 0, 255]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const signature = Buffer.from('89504e470d0a1a0a', 'hex');
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

/** A real WAV: 16-bit mono PCM at 8 kHz, a quarter second of tone. */
function wav(): Buffer {
  const rate = 8000;
  const data = Buffer.alloc((rate / 4) * 2);
  for (let i = 0; i < rate / 4; i++) data.writeInt16LE(Math.round(Math.sin(i / 4) * 8000), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

/** Uploads media through the server's media protocol (ask, PUT, report); returns its reference string and id. */
async function uploadMedia(bytes: Buffer, contentType: string, traceId: string): Promise<{ ref: string; mediaId: string }> {
  const { url, publicKey, secretKey } = local.server;
  const authorization = `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString('base64')}`;
  const sha256Hash = createHash('sha256').update(bytes).digest('base64');
  const ask = await fetch(`${url}/api/public/media`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ traceId, contentType, contentLength: bytes.length, sha256Hash, field: 'input' }),
  });
  const { mediaId, uploadUrl } = (await ask.json()) as { mediaId: string; uploadUrl: string };
  const put = await fetch(uploadUrl, {
    method: 'PUT',
    headers: { 'content-type': contentType, 'x-amz-checksum-sha256': sha256Hash },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  const report = await fetch(`${url}/api/public/media/${mediaId}`, {
    method: 'PATCH',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ uploadedAt: new Date().toISOString(), uploadHttpStatus: put.status }),
  });
  expect(report.status).toBe(204);
  return { ref: `@@@obsMedia:type=${contentType}|id=${mediaId}|source=base64_data_uri@@@`, mediaId };
}

describe.skipIf(!CHROMIUM)('trace viewer in headless Chromium', () => {
  it('lists a new trace without a reload, opens its tree with the generation messages, filters, sessions; writes a screenshot', async () => {
    await page.goto(local.server.url);
    await page.waitForSelector('.live.on');
    expect(await page.textContent('main')).toContain('No traces yet');

    const first = await chatTurn('user-7', 'chat-1', 'Where is my order 42?', 'It shipped yesterday.');
    // Live: the row appears with no reload.
    const row = page.locator(`tr[data-trace-id="${first}"]`);
    await row.waitFor({ timeout: 5000 });
    expect(await row.textContent()).toContain('POST /chat/:id');
    expect(await row.textContent()).toContain('user-7');
    expect(await row.textContent()).toContain('43'); // total tokens

    const failing = await chatTurn('user-8', 'chat-2', 'Cancel order 7', 'Sorry.', true);
    await page.locator(`tr[data-trace-id="${failing}"]`).waitFor({ timeout: 5000 });
    expect(await page.locator(`tr[data-trace-id="${failing}"]`).getAttribute('class')).toContain('error');

    // Filters: errors only, then by user.
    await page.check('input[data-filter="errors"]');
    await page.waitForFunction(
      (id) => document.querySelectorAll('tr.row').length === 1 && !!document.querySelector(`tr[data-trace-id="${id}"]`),
      failing,
    );
    await page.uncheck('input[data-filter="errors"]');
    await page.fill('input[data-filter="user"]', 'user-7');
    await page.waitForFunction(
      (id) => document.querySelectorAll('tr.row').length === 1 && !!document.querySelector(`tr[data-trace-id="${id}"]`),
      first,
    );
    await page.fill('input[data-filter="user"]', '');
    await page.waitForFunction(() => document.querySelectorAll('tr.row').length === 2);

    // The trace: tree nesting and the generation's chat messages.
    await row.click();
    await page.waitForSelector('#tree .tree-row');
    const depths = await page.$$eval('#tree .tree-row', (els) =>
      els.map((e) => `${e.getAttribute('data-depth')} ${e.querySelector('.tree-name')?.textContent}`),
    );
    expect(depths).toEqual(['0 spanPOST /chat/:id', '1 agentsupport-agent', '2 toollookup-order', '2 generationchat-model']);
    await page.click('#tree .tree-row:has-text("chat-model")');
    await page.waitForSelector('#input .msg.system');
    const roles = await page.$$eval('#input .msg', (els) => els.map((e) => e.getAttribute('data-role')));
    expect(roles).toEqual(['system', 'user']);
    expect(await page.textContent('#input .msg.user')).toContain('Where is my order 42?');
    expect(await page.textContent('#output .msg.assistant')).toContain('It shipped yesterday.');
    expect(await page.textContent('#output .tool-call')).toContain('lookup-order');
    expect(await page.textContent('#detail')).toContain('gpt-4o-mini');
    expect(await page.textContent('#scores')).toContain('helpful: 1');
    mkdirSync(OUT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(OUT_DIR, 'viewer-trace.png') });

    // The session reads as a conversation.
    await chatTurn('user-7', 'chat-1', 'And order 43?', 'That one arrives tomorrow.');
    await page.goto(`${local.server.url}/#/session/chat-1`);
    await page.waitForFunction(() => document.querySelectorAll('.turn').length === 2);
    const turns = await page.$$eval('.turn', (els) => els.map((e) => e.textContent ?? ''));
    expect(turns[0]).toContain('Where is my order 42?');
    expect(turns[1]).toContain('That one arrives tomorrow.');
    expect(await cspViolationsOf(page)).toEqual([]);
  });

  it('opens at http://localhost, http://127.0.0.1 and http://[::1] alike', async () => {
    const { port } = local.server;
    for (const base of [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`]) {
      await page.goto(`${base}/`);
      await page.waitForSelector('#trace-count');
      expect(Number((await page.textContent('#trace-count'))?.split(' ')[0]), base).toBeGreaterThanOrEqual(3);
    }
  });

  it('renders hostile trace content as text: HTML in names, inputs, outputs, tags, metadata and scores runs nothing and makes no element', async () => {
    // Each payload records that it ran; none may.
    const ran = (tag: string) => `window.xss=(window.xss||[]).concat('${tag}')`;
    const p = {
      img: `<img src=x onerror="${ran('img')}">`,
      script: `</script><script>${ran('script')}</script>`,
      svg: `"><svg onload="${ran('svg')}"></svg>`,
      iframe: `<iframe srcdoc="<script>parent.${ran('iframe')}</script>"></iframe>`,
      style: `<style>body{display:none}</style><b onmouseover="${ran('b')}">bold</b>`,
    };
    const all = Object.values(p).join(' ');
    let traceId = '';
    await propagateAttributes(
      { userId: `u${p.img}`, sessionId: `s${p.svg}`, tags: [p.img, p.script], traceName: `t${p.style}`, metadata: { origin: p.iframe } },
      () =>
        startActiveObservation(`root ${p.img}`, async (root) => {
          traceId = root.traceId;
          root.update({ input: all, output: { html: p.script, nested: [p.svg, { deeper: p.iframe }] }, metadata: { [p.img]: p.style } });
          startObservation(
            `gen ${p.svg}`,
            {
              input: [
                { role: 'user', content: p.img },
                { role: 'assistant', content: p.style, tool_calls: [{ id: 'c1', name: p.script, args: { q: p.iframe } }] },
              ],
              output: { role: 'assistant', content: p.svg },
              model: p.img,
            },
            { asType: 'generation' },
          ).end();
        }),
    );
    local.handle.client.score.create({ traceId, name: p.img, value: p.script, comment: p.svg });
    await local.handle.flush();

    const inert = async (where: string) => {
      const found = await page.evaluate(() => ({
        ran: (window as unknown as { xss?: string[] }).xss ?? [],
        elements: [
          ...document.querySelectorAll('main img, main svg, main iframe, main script, main style, main b, main object, main embed'),
        ].map((e) => e.outerHTML.slice(0, 60)),
        csp: (window as unknown as { cspViolations: string[] }).cspViolations,
      }));
      expect(found, where).toEqual({ ran: [], elements: [], csp: [] });
    };

    await page.goto(`${local.server.url}/`);
    const row = page.locator(`tr[data-trace-id="${traceId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(p.img); // the tag, as text
    expect(await row.textContent()).toContain(`t${p.style}`);
    await inert('trace list');

    await row.locator('.trace-name').click();
    await page.waitForSelector('#tree .tree-row');
    expect(await page.textContent('#input')).toContain(all);
    expect(await page.textContent('#output')).toContain(p.script);
    expect(await page.textContent('#detail')).toContain('<style>body{display:none}</style>'); // metadata value
    expect(await page.textContent('#scores')).toContain(p.img);
    await inert('trace, root');

    await page.click('#tree .tree-row:has-text("gen ")');
    await page.waitForSelector('#input .msg.user');
    expect(await page.textContent('#input .msg.user')).toContain(p.img);
    expect(await page.textContent('#input .tool-call')).toContain(p.script);
    expect(await page.textContent('#output .msg.assistant')).toContain(p.svg);
    await inert('trace, generation');

    await page.click(`a[href^="#/session/"]`);
    await page.waitForSelector('.turn');
    expect(await page.textContent('main')).toContain(`Session s${p.svg}`);
    await inert('session');
  });

  it('shows media references as an image, an audio player and a download link served by the server; the client reads them back', async () => {
    const image = png(4, 3);
    const sound = wav();
    const pdf = Buffer.from('%PDF-1.4\n% a tiny document\n');
    const gen = startObservation('describe-picture', {}, { asType: 'generation' });
    const [picture, audio, doc] = [
      await uploadMedia(image, 'image/png', gen.traceId),
      await uploadMedia(sound, 'audio/wav', gen.traceId),
      await uploadMedia(pdf, 'application/pdf', gen.traceId),
    ];
    // A reference whose id is HTML: still an image of this server's, with the id as a path segment, and nothing runs.
    const hostile = '@@@obsMedia:type=image/png|id="><img src=x onerror="window.xss=1">|source=bytes@@@';
    gen.update({
      input: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: picture.ref } },
          ],
        },
      ],
      output: `Listen: ${audio.ref} ${hostile}`,
      metadata: { attachment: doc.ref },
    });
    gen.end();
    await local.handle.flush();

    await page.goto(`${local.server.url}/#/trace/${gen.traceId}/${gen.id}`);
    await page.waitForSelector('#input img.media', { timeout: 5000 });
    await page.waitForFunction(() => (document.querySelector('#input img.media') as HTMLImageElement).complete);
    expect(
      await page.$eval('#input img.media', (e) => [(e as HTMLImageElement).naturalWidth, (e as HTMLImageElement).naturalHeight]),
    ).toEqual([4, 3]);
    expect(await page.textContent('#input .msg.user')).toContain('What is in this picture?');

    expect(await page.getAttribute('#output audio.media', 'src')).toBe(`/viewer-api/media/${audio.mediaId}`);
    await page.waitForFunction(() => (document.querySelector('#output audio.media') as HTMLAudioElement).readyState >= 1); // its header decoded
    expect(await page.$eval('#output audio.media', (e) => (e as HTMLAudioElement).duration)).toBeCloseTo(0.25, 2);
    expect(await page.textContent('#output')).toContain('Listen: ');

    const link = page.locator('#detail a.media-file');
    expect(await link.getAttribute('href')).toBe(`/viewer-api/media/${doc.mediaId}`);
    const served = await page.evaluate(
      async (href) => {
        const res = await fetch(href);
        return { type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), text: await res.text() };
      },
      (await link.getAttribute('href'))!,
    );
    expect(served).toEqual({ type: 'application/pdf', disposition: `attachment; filename="${doc.mediaId}"`, text: pdf.toString() });

    const hostileImages = await page.$$eval('#output img', (els) => els.map((e) => e.getAttribute('src')));
    expect(hostileImages).toEqual([`/viewer-api/media/${encodeURIComponent('"><img src=x onerror="window.xss=1">')}`]);
    expect(await page.evaluate(() => (window as unknown as { xss?: unknown }).xss)).toBeUndefined();
    expect(await cspViolationsOf(page)).toEqual([]);

    // The SDK's client reads the same media back from the server.
    const record = await local.handle.client.api.media.get(picture.mediaId);
    expect(record).toMatchObject({ mediaId: picture.mediaId, contentType: 'image/png', contentLength: image.length });
    const resolved = await local.handle.client.media.resolveReferences({
      obj: { picture: picture.ref, note: [`hear ${audio.ref}`] },
      resolveWith: 'base64DataUri',
    });
    expect(resolved).toEqual({
      picture: `data:image/png;base64,${image.toString('base64')}`,
      note: [`hear data:audio/wav;base64,${sound.toString('base64')}`],
    });
  });

  it('stays fast with 10,000 stored traces: the list answers in one request', async () => {
    for (let i = 0; i < 100; i++) {
      await propagateAttributes({ userId: `bulk-${i % 10}` }, async () => {
        for (let j = 0; j < 100; j++) startObservation(`bulk-${i}-${j}`).end();
      });
    }
    await local.handle.flush();
    const res = await fetch(`${local.server.url}/viewer-api/traces?limit=200`);
    const body = (await res.json()) as { data: unknown[]; total: number };
    expect(body.total).toBeGreaterThanOrEqual(10_000);
    expect(body.data).toHaveLength(200);
    await page.goto(local.server.url);
    await page.waitForSelector('tr.row');
    expect(Number((await page.textContent('#trace-count'))?.split(' ')[0])).toBeGreaterThanOrEqual(10_000);
  });
});

/** The viewer's CSP violations so far: the viewer itself must never trip its policy. */
const cspViolations = () => cspViolationsOf(page);

/** Posts a hand-made OTLP/JSON export (times to the nanosecond) to a server. */
async function postOtlp(server: { url: string; publicKey: string; secretKey: string }, spans: Array<Record<string, unknown>>) {
  const res = await fetch(`${server.url}/api/public/otel/v1/traces`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${server.publicKey}:${server.secretKey}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'obs-sdk' }, spans }] }] }),
  });
  expect(res.status).toBe(200);
}

/** An OTLP/JSON span: `start` and `end` in nanoseconds after `base`, string attributes. */
function otlpSpan(
  traceId: string,
  spanId: string,
  name: string,
  base: bigint,
  start: number,
  end: number,
  attrs: Record<string, string> = {},
  parent?: string,
) {
  return {
    traceId,
    spanId,
    ...(parent && { parentSpanId: parent }),
    name,
    kind: 1,
    startTimeUnixNano: String(base + BigInt(start)),
    endTimeUnixNano: String(base + BigInt(end)),
    attributes: Object.entries(attrs).map(([key, value]) => ({ key, value: { stringValue: value } })),
  };
}

const hex = (chars: number) => randomBytes(chars / 2).toString('hex');

/** The experiments' evaluator: 1 when the output is the item's expected output, else 0. */
const exact = ({ output, expectedOutput }: { output: unknown; expectedOutput?: unknown }) => ({
  name: 'exact',
  value: output === expectedOutput ? 1 : 0,
});

describe.skipIf(!CHROMIUM)('the viewer finds, measures, copies, and shows prompts, datasets and runs', () => {
  it('searches names, inputs, outputs and metadata from the filter bar', async () => {
    const a = await chatTurn('user-s', 'chat-s', 'Does the parcel to Reykjavík ship today?', 'It ships this afternoon.');
    let withMetadata = '';
    await startActiveObservation('nightly-report', async (root) => {
      withMetadata = root.traceId;
      root.update({ metadata: { warehouse: 'Malmö-north' } });
    });
    await local.handle.flush();
    await page.goto(`${local.server.url}/`);
    await page.waitForSelector('tr.row');
    const rowsFor = async (query: string) => {
      await page.fill('input[data-filter="q"]', query);
      await page.waitForSelector(`.filters[data-q="${query.trim()}"]`); // the list as read for this query
      return page.$$eval('tr.row', (els) => els.map((e) => e.getAttribute('data-trace-id')));
    };
    expect(await rowsFor('reykjavik PARCEL')).toEqual([a]); // an input's words, accents and case ignored
    expect(await rowsFor('afternoon')).toEqual([a]); // an output's
    expect(await rowsFor('malmo')).toEqual([withMetadata]); // a metadata value's
    expect(await rowsFor('nightly-rep')).toEqual([withMetadata]); // a name's
    expect(await rowsFor('reykjavik warehouse')).toEqual([]);
    expect(await page.textContent('main')).toContain('No trace matches.');
    expect(await page.textContent('#trace-count')).toBe('0 traces');
    await page.fill('input[data-filter="q"]', '');
    await page.waitForFunction(() => document.querySelectorAll('tr.row').length > 2);
    expect(await cspViolations()).toEqual([]);
  });

  it('reads durations exactly at every scale, and copies a trace as JSON', async () => {
    const traceId = hex(32);
    const [root, gen, tool, event] = [hex(16), hex(16), hex(16), hex(16)];
    const base = BigInt(Date.now()) * 1_000_000n;
    await postOtlp(local.server, [
      otlpSpan(traceId, root, 'timed-request', base, 0, 2_500_000_000, { 'obs.observation.input': 'how long?' }),
      otlpSpan(traceId, gen, 'quick-generation', base, 1_000_000, 1_300_000, { 'obs.observation.type': 'generation' }, root),
      otlpSpan(traceId, tool, 'lookup', base, 2_000_000, 14_345_000, { 'obs.observation.type': 'tool' }, root),
      otlpSpan(traceId, event, 'checkpoint', base, 20_000_000, 20_000_000, { 'obs.observation.type': 'event' }, root),
    ]);
    await page.goto(`${local.server.url}/#/trace/${traceId}`);
    await page.waitForSelector('#tree .tree-row');
    const durations = await page.$$eval('#tree .tree-row', (els) =>
      els.map((e) => `${e.querySelector('.tree-name')?.textContent} ${e.querySelector('.tree-duration')?.textContent}`),
    );
    expect(durations).toEqual([
      'spantimed-request 2.5 s',
      'generationquick-generation 300 µs',
      'toollookup 12.3 ms',
      'eventcheckpoint 0 µs',
    ]);
    await page.click('#tree .tree-row:has-text("quick-generation")');
    await page.waitForFunction(() => document.querySelector('#duration')?.textContent === '300 µs');
    expect(await page.textContent('.trace-head')).toContain('2.5 s');

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: local.server.url });
    await page.click('#copy-json');
    await page.waitForFunction(() => document.querySelector('#copy-json')?.textContent === 'Copied');
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
    expect(copied.summary).toMatchObject({ id: traceId, name: 'timed-request', observations: 4 });
    expect(copied.observations.map((o: { id: string; durationMs: number }) => [o.id, o.durationMs])).toEqual([
      [root, 2500],
      [gen, 0.3],
      [tool, 12.345],
      [event, 0],
    ]);
    expect(copied.observations[0].input).toBe('how long?');
    expect(await cspViolations()).toEqual([]);
  });

  it('shows a prompt: versions, labels, a diff between versions, the generations that used it, linked from a generation', async () => {
    const client = local.handle.client;
    await client.prompt.create({
      name: 'support-reply',
      type: 'text',
      prompt: 'You are a support agent.\nAnswer {{question}} briefly.',
      labels: ['production'],
    });
    await client.prompt.create({
      name: 'support-reply',
      type: 'text',
      prompt: 'You are a friendly support agent.\nAnswer {{question}} briefly.',
      labels: ['staging'],
      commitMessage: 'friendlier',
    });
    const prompt = await client.prompt.get('support-reply', { label: 'staging' });
    const gen = startObservation(
      'reply',
      { prompt, model: 'gpt-4o-mini', input: prompt.compile({ question: 'the refund' }) },
      { asType: 'generation' },
    );
    gen.update({ output: 'Refunds take 3 days.' });
    gen.end();
    await local.handle.flush();

    await page.goto(`${local.server.url}/#/trace/${gen.traceId}/${gen.id}`);
    await page.waitForSelector('#prompt-link');
    expect(await page.textContent('#prompt-link')).toBe('support-reply v2');
    await page.click('#prompt-link');
    await page.waitForSelector('#prompt-version');
    expect(await page.$$eval('#versions a.version', (els) => els.map((e) => e.getAttribute('data-version')))).toEqual(['2', '1']);
    expect(await page.textContent('#versions')).toContain('production');
    expect(await page.textContent('#versions')).toContain('friendlier');
    expect(await page.textContent('#prompt-content')).toBe('You are a friendly support agent.\nAnswer {{question}} briefly.');
    const diff = await page.$$eval('#prompt-diff > div:not(.muted)', (els) => els.map((e) => `${e.className}|${e.textContent}`));
    expect(diff).toEqual([
      'removed|- You are a support agent.',
      'added|+ You are a friendly support agent.',
      'same|  Answer {{question}} briefly.',
    ]);
    expect(await page.$$eval('#prompt-uses tr.row', (els) => els.map((e) => e.getAttribute('data-observation-id')))).toEqual([gen.id]);
    mkdirSync(OUT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(OUT_DIR, 'viewer-prompt.png') });
    await page.goto(`${local.server.url}/#/prompts`);
    await page.waitForSelector('#prompts tr.row');
    expect(await page.textContent('tr[data-prompt="support-reply"]')).toContain('production v1');
    await page.click('tr[data-prompt="support-reply"] a');
    await page.waitForSelector('#prompt-uses');
    await page.click('#prompt-uses a');
    await page.waitForFunction((id) => location.hash.endsWith(id), gen.id);
    await page.waitForSelector('#prompt-link');
    expect(await cspViolations()).toEqual([]);
  });

  it('shows a dataset (items, versions) and two runs of it side by side with per-item outputs, scores and averages', async () => {
    const client = local.handle.client;
    await client.api.datasets.create({ name: 'capitals', description: 'a country and its capital' });
    const rows = [
      ['France', 'Paris'],
      ['Japan', 'Tokyo'],
      ['Peru', 'Lima'],
    ];
    for (const [country, capital] of rows)
      await client.dataset.createItem({ datasetName: 'capitals', id: `cap-${country}`, input: { country }, expectedOutput: capital });
    const before = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    await client.dataset.createItem({ datasetName: 'capitals', id: 'cap-Peru', expectedOutput: 'Lima (Peru)' });
    const dataset = await client.dataset.get('capitals');
    const length = ({ output }: { output: unknown }) => ({ name: 'length', value: String(output).length });
    /** A run of the dataset that answers each country's capital from `answers`. */
    const guess = (runName: string, answers: Record<string, string>) =>
      dataset.runExperiment({
        name: 'capitals',
        runName,
        maxConcurrency: 1,
        task: (item) => answers[(item.input as { country: string }).country],
        evaluators: [exact, length],
      });
    const first = await guess('guess v1', { France: 'Paris', Japan: 'Kyoto', Peru: 'Lima' });
    const second = await guess('guess v2', { France: 'Paris', Japan: 'Tokyo', Peru: 'Lima (Peru)' });
    await local.handle.flush();
    await local.server.waitFor(() => local.server.scores.filter((s) => s['name'] === 'exact').length === 6);

    await page.goto(`${local.server.url}/#/datasets`);
    await page.waitForSelector('tr[data-dataset="capitals"]');
    expect(await page.textContent('tr[data-dataset="capitals"]')).toContain('a country and its capital');
    await page.click('tr[data-dataset="capitals"] a');
    await page.waitForSelector('#dataset-items');
    expect(await page.$$eval('#dataset-items tbody tr', (els) => els.map((e) => e.getAttribute('data-item-id')))).toEqual([
      'cap-France',
      'cap-Japan',
      'cap-Peru',
    ]);
    expect(await page.textContent('tr[data-item-id="cap-Peru"]')).toContain('Lima (Peru)');
    // An earlier version: the item as it was.
    const versions = await page.$$eval('#dataset-version option', (els) => els.map((e) => (e as HTMLOptionElement).value).filter(Boolean));
    expect(versions.length).toBeGreaterThanOrEqual(2); // each change is a version (two in one millisecond are one)
    const earlier = versions
      .map(Number)
      .filter((v) => v <= before)
      .sort((x, y) => y - x)[0]!;
    await page.selectOption('#dataset-version', String(earlier));
    await page.waitForFunction(() => !document.querySelector('tr[data-item-id="cap-Peru"]')?.textContent?.includes('(Peru)'));
    expect(await page.textContent('tr[data-item-id="cap-Peru"]')).toContain('Lima');
    mkdirSync(OUT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(OUT_DIR, 'viewer-dataset.png') });

    expect(await page.$$eval('#dataset-runs tbody tr', (els) => els.map((e) => e.getAttribute('data-run-id')))).toEqual([
      first.experimentId,
      second.experimentId,
    ]);
    await page.check(`input[data-run="${first.experimentId}"]`);
    await page.check(`input[data-run="${second.experimentId}"]`);
    await page.click('button.compare');
    await page.waitForSelector('#comparison');
    const averages = await page.$$eval('#averages tbody tr[data-evaluator]', (els) =>
      els.map((e) => [...e.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(averages).toEqual([
      ['exact', '0.333', '1'],
      ['length', '4.667', '7'],
    ]);
    const cells = await page.$$eval('#comparison tbody tr', (els) =>
      els.map((e) => [e.getAttribute('data-item-id'), ...[...e.querySelectorAll('td[data-run]')].map((td) => td.textContent)]),
    );
    expect(cells).toEqual([
      ['cap-France', 'Parisexact: 1length: 5trace', 'Parisexact: 1length: 5trace'],
      ['cap-Japan', 'Kyotoexact: 0length: 5trace', 'Tokyoexact: 1length: 5trace'],
      ['cap-Peru', 'Limaexact: 0length: 4trace', 'Lima (Peru)exact: 1length: 11trace'],
    ]);
    mkdirSync(OUT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(OUT_DIR, 'viewer-compare.png'), fullPage: true });
    expect(await cspViolations()).toEqual([]);
  });

  it('serves its favicon', async () => {
    await page.goto(`${local.server.url}/`);
    expect(await page.getAttribute('link[rel="icon"]', 'href')).toBe('/favicon.svg');
    for (const icon of ['/favicon.svg', '/favicon.ico']) {
      const res = await fetch(`${local.server.url}${icon}`);
      expect([res.status, res.headers.get('content-type'), (await res.text()).startsWith('<svg')]).toEqual([200, 'image/svg+xml', true]);
    }
  });

  it('shows the traces, prompts and datasets of a server with a data directory after it restarted', async () => {
    const data = mkdtempSync(path.join(tmpdir(), 'obs-viewer-data-'));
    try {
      let server = await startObsServer({ data, quiet: true });
      const traceId = hex(32);
      const base = BigInt(Date.now()) * 1_000_000n;
      await postOtlp(server, [
        otlpSpan(traceId, hex(16), 'before-restart', base, 0, 1_000_000, { 'obs.observation.input': 'remember me' }),
      ]);
      const auth = `Basic ${Buffer.from(`${server.publicKey}:${server.secretKey}`).toString('base64')}`;
      const post = (route: string, body: unknown) =>
        fetch(`${server.url}${route}`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await post('/api/public/v2/prompts', { name: 'kept-prompt', prompt: 'Still here' })).status).toBe(200);
      expect((await post('/api/public/v2/datasets', { name: 'kept-dataset' })).status).toBe(200);
      expect((await post('/api/public/scores', [{ traceId, name: 'kept-score', value: 1 }])).status).toBe(200);
      await server.close();

      server = await startObsServer({ data, quiet: true });
      try {
        await page.goto(`${server.url}/`);
        await page.waitForSelector(`tr[data-trace-id="${traceId}"]`);
        expect(await page.textContent('#trace-count')).toBe('1 trace');
        await page.fill('input[data-filter="q"]', 'remember');
        await page.waitForSelector('.filters[data-q="remember"]');
        expect(await page.$$eval('tr.row', (els) => els.map((e) => e.getAttribute('data-trace-id')))).toEqual([traceId]);
        await page.click(`tr[data-trace-id="${traceId}"]`);
        await page.waitForSelector('#scores');
        expect(await page.textContent('#scores')).toContain('kept-score: 1');
        await page.goto(`${server.url}/#/prompts`);
        await page.waitForSelector('tr[data-prompt="kept-prompt"]');
        await page.goto(`${server.url}/#/datasets`);
        await page.waitForSelector('tr[data-dataset="kept-dataset"]');
        expect(await cspViolations()).toEqual([]);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});

if (!CHROMIUM) {
  it.skip('trace viewer browser test: no Chromium found (/usr/bin/chromium); install it with `apt-get install -y chromium`', () => {});
}

describe.skipIf(!CHROMIUM)('every page of the viewer, with data on it (issue 45)', () => {
  it('opens each page with at least one item; none shows "[object " or "undefined"; costs, plurals, dataset names, SDK links', async () => {
    const client = local.handle.client;
    // A session of exactly one trace, whose generation is priced from the table (no cost_details).
    let single = '';
    await propagateAttributes({ sessionId: 'one-turn', userId: 'pricing-user' }, () =>
      startActiveObservation('priced request', async (root) => {
        single = root.traceId;
        root.update({ input: 'how much?', output: 'this much' });
        const gen = startObservation(
          'priced-model',
          { model: 'gpt-4o-mini', input: [{ role: 'user', content: 'how much?' }] },
          { asType: 'generation' },
        );
        gen.update({ output: 'this much', usageDetails: { input: 2_000_000, output: 1_000_000 } });
        gen.end();
      }),
    );
    await client.prompt.create({ name: 'every-page', type: 'text', prompt: 'First {{x}}', labels: ['production'] });
    await client.prompt.create({ name: 'every-page', type: 'text', prompt: 'Second {{x}}' });
    await client.api.datasets.create({ name: 'cities', description: 'a city and its country' });
    for (const [city, country] of [
      ['Lyon', 'France'],
      ['Osaka', 'Japan'],
    ])
      await client.dataset.createItem({ datasetName: 'cities', id: `city-${city}`, input: { city }, expectedOutput: country });
    const dataset = await client.dataset.get('cities');
    /** A run of the dataset that answers each city's country from `answers`, each answer a priced generation. */
    const guess = (runName: string, answers: Record<string, string>) =>
      dataset.runExperiment({
        name: 'cities',
        runName,
        maxConcurrency: 1,
        task: (item) => {
          const gen = startObservation('guess', { model: 'claude-haiku-4-5', input: item.input }, { asType: 'generation' });
          const out = answers[(item.input as { city: string }).city];
          gen.update({ output: out, usageDetails: { input: 100_000, output: 20_000 } });
          gen.end();
          return out;
        },
        evaluators: [exact],
      });
    const runA = await guess('cities A', { Lyon: 'France', Osaka: 'China' });
    const runB = await guess('cities B', { Lyon: 'France', Osaka: 'Japan' });
    await local.handle.flush();
    await local.server.waitFor(() => local.server.scores.filter((s) => s['name'] === 'exact').length >= 4);
    const gen = local.server.spansByName('priced-model')[0]!;
    const versions = ((await (await fetch(`${local.server.url}/viewer-api/datasets/cities`)).json()) as { versions: number[] }).versions;

    const pages: Array<[hash: string, ready: string]> = [
      ['#/', 'tr.row'],
      [`#/trace/${single}`, '#tree .tree-row'],
      [`#/trace/${single}/${gen.spanId}`, '#cost'],
      ['#/session/one-turn', '.turn'],
      ['#/experiments', 'section.panel tr[data-run-id]'],
      [`#/compare/${runA.experimentId},${runB.experimentId}`, '#comparison tbody tr'],
      [`#/compare/${runA.experimentId}`, '#comparison tbody tr'],
      ['#/datasets', 'tr[data-dataset="cities"]'],
      ['#/dataset/cities', '#dataset-items tbody tr'],
      [`#/dataset/cities/${versions[0]}`, '#dataset-items tbody tr'],
      ['#/prompts', 'tr[data-prompt="every-page"]'],
      ['#/prompt/every-page', '#prompt-content'],
      ['#/prompt/every-page/1/diff/2', '#prompt-diff'],
    ];
    for (const [hash, ready] of pages) {
      await page.goto(`${local.server.url}/${hash}`);
      await page.waitForSelector(ready, { timeout: 5000 });
      const text = (await page.textContent('main')) ?? '';
      expect(text, hash).not.toContain('[object ');
      expect(text, hash).not.toMatch(/\bundefined\b|\bNaN\b/);
      expect(await cspViolations(), hash).toEqual([]);
    }

    // The experiments overview: both runs under the dataset's name, with their costs.
    await page.goto(`${local.server.url}/#/experiments`);
    await page.waitForSelector('section[data-dataset-id] tr[data-run-id]');
    const section = page.locator(`section[data-dataset-id="${dataset.id}"]`);
    expect(await section.locator('h3').textContent()).toContain('Dataset cities');
    expect(await section.locator('tr[data-run-id]').count()).toBe(2);
    // 2 items x (100k input at $1, 20k output at $5 per million) = $0.400 a run.
    expect(await section.locator(`tr[data-run-id="${runA.experimentId}"]`).textContent()).toContain('$0.400');

    // Compare names the dataset; its cost row; each item's cost.
    await page.goto(`${local.server.url}/#/compare/${runA.experimentId},${runB.experimentId}`);
    await page.waitForSelector('#comparison tbody tr');
    expect(await page.textContent('#compare-summary')).toBe('2 items · dataset cities');
    expect(await page.$$eval('#averages tr.cost-row td', (els) => els.map((e) => e.textContent))).toEqual(['cost', '$0.400', '$0.400']);

    // The session says "1 trace" and what it cost; the list and the trace show the priced cost.
    await page.goto(`${local.server.url}/#/session/one-turn`);
    await page.waitForSelector('.turn');
    expect(await page.textContent('#session-summary')).toBe('1 trace · $0.900'); // 2M input at $0.15 + 1M output at $0.60
    await page.goto(`${local.server.url}/#/`);
    await page.waitForSelector(`tr[data-trace-id="${single}"]`);
    expect(await page.textContent(`tr[data-trace-id="${single}"] td:last-child`)).toBe('$0.900');
    await page.goto(`${local.server.url}/#/trace/${single}/${gen.spanId}`);
    await page.waitForSelector('#cost');
    expect(await page.textContent('#cost')).toBe('$0.900 (input $0.300, output $0.600) · priced as gpt-4o-mini from the price table');
    expect(await page.textContent('#trace-cost')).toBe(' · $0.900');

    // The SDK's links open the trace and the run here: getTraceUrl() and an experiment result's format().
    const traceUrl = await client.getTraceUrl(single);
    expect(traceUrl).toBe(`${local.server.url}/project/${local.server.projectId}/traces/${single}`);
    await page.goto(traceUrl!);
    await page.waitForSelector('#tree .tree-row');
    expect(await page.evaluate(() => location.hash)).toBe(`#/trace/${single}`);
    const runUrl = /URL: (\S+)/.exec(runA.format())![1]!;
    await page.goto(runUrl);
    await page.waitForSelector('#comparison tbody tr');
    expect(await page.evaluate(() => location.hash)).toBe(`#/compare/${runA.experimentId}`);

    // The search box shows its whole placeholder.
    await page.goto(`${local.server.url}/#/`);
    await page.waitForSelector('input[data-filter="q"]');
    const fits = await page.$eval('input[data-filter="q"]', (el) => {
      const input = el as HTMLInputElement;
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      const needed = context.measureText(input.placeholder).width;
      return needed <= room || `${needed} px of placeholder in ${room} px`;
    });
    expect(fits).toBe(true);
  });
});
