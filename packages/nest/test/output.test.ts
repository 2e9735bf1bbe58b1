import { get } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { TRUNCATION_MARKER } from '@obs/core/kit';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatAppModule, identifyUser } from './fixtures/chat-app.js';
import { only, platforms, urlOf, initTestObs, setupObsServer } from './support/harness.js';

const obs = setupObsServer({ init: initTestObs });

describe.each(platforms)('output capture ($name)', (platform) => {
  let app: INestApplication;
  let plain: INestApplication;
  let noOutput: INestApplication;

  beforeAll(async () => {
    app = await platform.createApp(ChatAppModule.with({ identify: identifyUser, maxCaptureBytes: 100 }));
    plain = await platform.createApp(ChatAppModule.with(undefined));
    noOutput = await platform.createApp(ChatAppModule.with({ captureOutput: false }));
  });
  afterAll(async () => {
    await app.close();
    await plain.close();
    await noOutput.close();
  });

  it('records what an Observable handler emitted, and the @Observe Observable method under it', async () => {
    await request(app.getHttpServer())
      .get('/chat/words?text=one%20two%20three')
      .set('x-user', 'u-1')
      .expect(200, { words: ['one', 'two', 'three'] });
    await obs.handle.flush();
    const root = only(obs.server, 'GET /chat/words');
    expect(root.attributes['obs.observation.output']).toBe('{"words":["one","two","three"]}');
    expect(root.attributes['obs.observation.input']).toBe('{"text":"one two three"}');
    const words = only(obs.server, 'words');
    expect(words.parentSpanId).toBe(root.spanId);
    expect(words.attributes['obs.observation.output']).toBe('onetwothree');
    expect(words.attributes['user.id']).toBe('u-1');
  });

  it('reassembles the data of @Sse() events, and sends them unchanged', async () => {
    const sse = (target: INestApplication) =>
      request(target.getHttpServer())
        .get('/chat/stream?text=hello%20streaming%20world')
        .set('x-user', 'u-2')
        .buffer(true)
        .parse((r, done) => {
          let text = '';
          r.on('data', (c: Buffer) => (text += c.toString()));
          r.on('end', () => done(null, text));
        })
        .expect(200);
    const res = await sse(app);
    expect(res.headers['content-type']).toMatch(/text\/event-stream/);
    expect(res.headers['x-obs-trace-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body).toContain('data: hello\n');
    expect(res.body).toBe((await sse(plain)).body);
    await obs.handle.flush();
    const root = only(obs.server, 'GET /chat/stream');
    expect(root.traceId).toBe(res.headers['x-obs-trace-id']);
    expect(root.attributes['obs.observation.output']).toBe('hello streaming world');
    expect(root.attributes['obs.observation.level']).toBeUndefined();
    expect(root.attributes['user.id']).toBe('u-2');
  });

  it('marks an SSE stream the client left as cancelled, and unsubscribes the @Observe Observable', async () => {
    await app.listen(0, '127.0.0.1');
    const url = `${await urlOf(app)}/chat/stream?text=${encodeURIComponent('w '.repeat(500))}`;
    await new Promise<void>((resolve, reject) => {
      const req = get(url, { agent: false, headers: { 'x-user': 'u-3' } }, (res) => {
        // Leave once a word arrived (not on a first chunk that holds no event yet, as under load).
        res.on('data', (chunk: Buffer) => {
          if (req.destroyed || !chunk.toString().includes('w')) return;
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    });
    // The spans end when the server notices the client left; the 50 ms export interval sends them.
    const root = await obs.server.waitFor(() => obs.server.spansByName('GET /chat/stream')[0]);
    expect(root.attributes).toMatchObject({
      'obs.observation.level': 'WARNING',
      'obs.observation.metadata.cancelled': true,
    });
    expect(root.attributes['obs.observation.output']).toMatch(/^w/);
    const words = await obs.server.waitFor(() => obs.server.spansByName('words')[0]);
    expect(words.attributes['obs.observation.metadata.cancelled']).toBe(true);
  });

  it('records the text of a StreamableFile as it streams, and sends every byte', async () => {
    const res = await request(app.getHttpServer()).get('/files/notes.txt').expect(200);
    expect(res.text).toBe('line one\nline two\n');
    await obs.handle.flush();
    expect(only(obs.server, 'GET /files/notes.txt').attributes['obs.observation.output']).toBe('line one\nline two\n');
  });

  it('caps a long streamed file with a visible marker, and still sends it whole', async () => {
    const res = await request(app.getHttpServer()).get('/files/notes.txt?size=5000').expect(200);
    expect(res.text).toHaveLength(5000);
    await obs.handle.flush();
    // The kept text, and the marker counting what was left out (cut once, as it streamed).
    expect(only(obs.server, 'GET /files/notes.txt').attributes['obs.observation.output']).toBe(
      `${'x'.repeat(100)}${TRUNCATION_MARKER}4900 more characters]`,
    );
  });

  it('describes a binary StreamableFile instead of reading it', async () => {
    const res = await request(app.getHttpServer()).get('/files/logo').expect(200);
    expect(res.body).toHaveLength(2048);
    await obs.handle.flush();
    expect(only(obs.server, 'GET /files/logo').attributes['obs.observation.output']).toBe(
      '[file image/png, 2048 bytes, inline; filename="logo.png"]',
    );
  });

  it('captureOutput: false records no output of values, files or @Sse() streams, and sends them unchanged', async () => {
    const server = noOutput.getHttpServer();
    await request(server).get('/cats/3').expect(200, { id: '3', name: 'Tom' });
    expect((await request(server).get('/files/notes.txt').expect(200)).text).toBe('line one\nline two\n');
    const sse = await request(server)
      .get('/chat/stream?text=a%20b')
      .set('x-user', 'u-5')
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => done(null, text));
      });
    expect(sse.body).toContain('data: a\n');
    await obs.handle.flush();
    const roots = ['GET /cats/:id', 'GET /files/notes.txt', 'GET /chat/stream'].map((name) => only(obs.server, name));
    expect(roots.map((r) => r.attributes['obs.observation.output'])).toEqual([undefined, undefined, undefined]);
    // Input is still recorded: only the output is off.
    expect(roots[2]!.attributes['obs.observation.input']).toBe('{"text":"a b"}');
  });

  it('caps long JSON output with a visible marker', async () => {
    const long = 'y'.repeat(300);
    await request(app.getHttpServer()).post('/cats').send({ note: long }).expect(201);
    await obs.handle.flush();
    const root = only(obs.server, 'POST /cats');
    for (const key of ['obs.observation.input', 'obs.observation.output']) {
      const value = root.attributes[key] as string;
      expect(value.length).toBeLessThan(160);
      expect(value).toContain(TRUNCATION_MARKER);
    }
  });
});
