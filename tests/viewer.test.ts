/**
 * The local server's trace viewer in a real headless Chromium: a trace the SDK sends appears in
 * the list without a reload, opening it shows the tree with the right nesting and the
 * generation's chat messages, filters work, sessions read as a conversation, and a screenshot of
 * the trace page is written for people to look at (test-output/viewer-trace.png).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { initObs, propagateAttributes, startActiveObservation, startObservation } from '@obs/core';
import { setupObsServer } from '@obs/local-server/testing';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));
const OUT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-output');

const local = setupObsServer({ reset: false, init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!CHROMIUM) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 820 } });
  // Whatever the content security policy blocks is counted: the viewer itself must never trip it.
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
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
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
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
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);

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

if (!CHROMIUM) {
  it.skip('trace viewer browser test: no Chromium found (/usr/bin/chromium); install it with `apt-get install -y chromium`', () => {});
}
