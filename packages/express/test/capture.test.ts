/**
 * Input and output of the root observation: the parsed body (else the query), what the handler
 * sent (JSON value, text, SSE / res.write chunks reassembled, binary described), the size cap
 * with its marker, and redaction at any depth.
 */
import { TRUNCATION_MARKER } from '@obs/core/kit';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { obsMiddleware, type ObsExpressOptions } from '../src/index.js';
import { EXPRESS_VERSIONS, traceOf, initTestObs, setupObsServer, type Express } from './harness.js';

const h = setupObsServer({ init: initTestObs });

function buildApp(express: Express, options?: ObsExpressOptions) {
  const app = express();
  app.use(obsMiddleware(options));
  app.use(express.json());
  app.use(express.text());
  app.post('/chat/:id', (req, res) => {
    res.json({ answer: `echo ${req.body.message}`, usage: { tokens: 3 } });
  });
  app.get('/search', (_req, res) => {
    res.send('found 2 results');
  });
  app.post('/text', (req, res) => {
    res.type('text/plain').send(String(req.body).toUpperCase());
  });
  app.get('/sse', (_req, res) => {
    res.setHeader('content-type', 'text/event-stream');
    res.setHeader('cache-control', 'no-cache');
    res.flushHeaders();
    let i = 0;
    const tick = () => {
      if (i < 3) {
        res.write(`data: ${JSON.stringify({ token: `t${i++}` })}\n\n`);
        setTimeout(tick, 2);
      } else res.end('data: [DONE]\n\n');
    };
    tick();
  });
  app.get('/chunks', (_req, res) => {
    res.type('text/plain');
    res.write(Buffer.from('héllo '));
    res.write('wörld');
    res.end();
  });
  app.get('/big', (_req, res) => {
    res.type('text/plain').send('x'.repeat(5000));
  });
  app.get('/big-stream', (_req, res) => {
    res.type('text/plain');
    for (let i = 0; i < 10; i++) res.write('y'.repeat(1000));
    res.end();
  });
  app.get('/image', (_req, res) => {
    res.type('image/png').send(Buffer.alloc(1234, 7));
  });
  app.get('/text-bytes', (_req, res) => {
    res.type('text/plain').send(Buffer.from('héllo bytes'));
  });
  app.get('/download', (_req, res) => {
    res.setHeader('content-type', 'application/octet-stream');
    res.write(Buffer.alloc(1000));
    res.write(Buffer.alloc(24));
    res.end(Buffer.alloc(10));
  });
  app.post('/login', (req, res) => {
    res.json({ user: { name: req.body.user.name, profile: { token: 'tok-123', nested: [{ apiKey: 'k-1', keep: 1 }] } } });
  });
  app.get('/json-string', (_req, res) => {
    res.type('application/json').send(JSON.stringify({ secret: 's3', visible: true }));
  });
  app.delete('/chat/:id', (_req, res) => {
    res.status(204).send('ignored by Express');
  });
  app.get('/etag', (_req, res) => {
    res.send('cacheable body');
  });
  app.head('/chat/:id', (_req, res) => {
    res.json({ ignored: true });
  });
  return app;
}

describe.each(EXPRESS_VERSIONS)('input and output on $name', ({ express }) => {
  const app = buildApp(express);

  it('records the parsed JSON body as input and the res.json value as output', async () => {
    const res = await request(app)
      .post('/chat/1?lang=en')
      .send({ message: 'hi', history: [{ role: 'user', content: 'a' }] });
    expect(res.body.answer).toBe('echo hi');
    const { root } = await traceOf(h, res);
    expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({
      message: 'hi',
      history: [{ role: 'user', content: 'a' }],
    });
    expect(JSON.parse(root.attributes['obs.observation.output'] as string)).toEqual({ answer: 'echo hi', usage: { tokens: 3 } });
  });

  it('records the query when there is no body, and text sent with res.send', async () => {
    const res = await request(app).get('/search?q=llm&page=2');
    const { root } = await traceOf(h, res);
    expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({ q: 'llm', page: '2' });
    expect(root.attributes['obs.observation.output']).toBe('found 2 results');
  });

  it('records a text body parsed by express.text()', async () => {
    const res = await request(app).post('/text').set('content-type', 'text/plain').send('shout');
    expect(res.text).toBe('SHOUT');
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.input']).toBe('shout');
    expect(root.attributes['obs.observation.output']).toBe('SHOUT');
  });

  it('reassembles server-sent events written over time', async () => {
    const res = await request(app)
      .get('/sse')
      .buffer(true)
      .parse((r, cb) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => cb(null, text));
      });
    const expected = 'data: {"token":"t0"}\n\ndata: {"token":"t1"}\n\ndata: {"token":"t2"}\n\ndata: [DONE]\n\n';
    expect(res.body).toBe(expected);
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.output']).toBe(expected);
    expect(root.attributes['http.response.status_code']).toBe(200);
  });

  it('reassembles res.write chunks of Buffers and strings as text', async () => {
    const res = await request(app).get('/chunks');
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.output']).toBe('héllo wörld');
  });

  it('describes binary bodies instead of dumping them', async () => {
    const res = await request(app).get('/image');
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.output']).toBe('[binary 1234 bytes, image/png]');
    const res2 = await request(app).get('/download');
    const { root: root2 } = await traceOf(h, res2);
    expect(root2.attributes['obs.observation.output']).toBe('[binary 1034 bytes, application/octet-stream]');
  });

  it('records bytes sent with a text content type as text', async () => {
    const res = await request(app).get('/text-bytes');
    expect(res.text).toBe('héllo bytes');
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.output']).toBe('héllo bytes');
  });

  it('redacts sensitive keys at any depth of input and output', async () => {
    const res = await request(app)
      .post('/login')
      .send({ user: { name: 'ada', password: 'hunter2', profile: { apiKey: 'in-key', tags: [{ token: 't', ok: true }] } } });
    const { root } = await traceOf(h, res);
    const input = JSON.parse(root.attributes['obs.observation.input'] as string);
    expect(input).toEqual({
      user: { name: 'ada', password: '[REDACTED]', profile: { apiKey: '[REDACTED]', tags: [{ token: '[REDACTED]', ok: true }] } },
    });
    const output = JSON.parse(root.attributes['obs.observation.output'] as string);
    expect(output).toEqual({ user: { name: 'ada', profile: { token: '[REDACTED]', nested: [{ apiKey: '[REDACTED]', keep: 1 }] } } });
    expect(JSON.stringify(root.attributes)).not.toMatch(/hunter2|tok-123|in-key|k-1/);
  });

  it('redacts a JSON body sent as a string', async () => {
    const res = await request(app).get('/json-string');
    const { root } = await traceOf(h, res);
    expect(JSON.parse(root.attributes['obs.observation.output'] as string)).toEqual({ secret: '[REDACTED]', visible: true });
  });

  it('records nothing as output for a HEAD request', async () => {
    const res = await request(app).head('/chat/1');
    expect(res.status).toBe(200);
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.output']).toBeUndefined();
    expect(root.attributes['http.request.method']).toBe('HEAD');
  });

  it('records no output for 204 and 304 responses, which carry no body', async () => {
    const res = await request(app).delete('/chat/1');
    expect(res.status).toBe(204);
    const { root } = await traceOf(h, res);
    expect(root.attributes['obs.observation.output']).toBeUndefined();
    expect(root.attributes['http.response.status_code']).toBe(204);

    const first = await request(app).get('/etag');
    const { root: firstRoot } = await traceOf(h, first);
    expect(firstRoot.attributes['obs.observation.output']).toBe('cacheable body');
    const cached = await request(app)
      .get('/etag')
      .set('if-none-match', first.headers.etag as string);
    expect(cached.status).toBe(304);
    const { root: cachedRoot } = await traceOf(h, cached);
    expect(cachedRoot.attributes['obs.observation.output']).toBeUndefined();
  });

  describe('with maxCaptureBytes', () => {
    const capped = buildApp(express, { maxCaptureBytes: 100 });

    it('cuts a long body with a visible marker', async () => {
      const res = await request(capped).get('/big');
      expect(res.text).toHaveLength(5000);
      const { root } = await traceOf(h, res);
      const output = root.attributes['obs.observation.output'] as string;
      expect(output.startsWith('x'.repeat(100) + TRUNCATION_MARKER)).toBe(true);
      expect(output).toContain('4900 more characters');
    });

    it('cuts a long stream with a visible marker', async () => {
      const res = await request(capped).get('/big-stream');
      const { root } = await traceOf(h, res);
      const output = root.attributes['obs.observation.output'] as string;
      // Cut once, at the cap: the marker counts the 10 × 1000 streamed characters minus the 100 kept.
      expect(output).toBe(`${'y'.repeat(100)}${TRUNCATION_MARKER}9900 more characters]`);
    });

    it('cuts a long input too', async () => {
      const res = await request(capped)
        .post('/chat/1')
        .send({ message: 'm'.repeat(500) });
      const { root } = await traceOf(h, res);
      const input = root.attributes['obs.observation.input'] as string;
      expect(input.length).toBeLessThan(200);
      expect(input).toContain(TRUNCATION_MARKER);
    });
  });

  describe('with capture options', () => {
    it('captureInput/captureOutput false record neither', async () => {
      const off = buildApp(express, { captureInput: false, captureOutput: false });
      const res = await request(off).post('/chat/1').send({ message: 'hi' });
      expect(res.body.answer).toBe('echo hi');
      const { root } = await traceOf(h, res);
      expect(root.attributes['obs.observation.input']).toBeUndefined();
      expect(root.attributes['obs.observation.output']).toBeUndefined();
      expect(root.name).toBe('POST /chat/:id');
    });

    it('captureInput/captureOutput functions choose what is recorded', async () => {
      const custom = buildApp(express, {
        captureInput: (req) => ({ id: req.params?.id ?? req.path, message: req.body?.message }),
        captureOutput: (body, res) => ({ status: res.statusCode, answer: (body as { answer?: string }).answer }),
      });
      const res = await request(custom).post('/chat/9').send({ message: 'yo', extra: 'dropped' });
      const { root } = await traceOf(h, res);
      expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toMatchObject({ message: 'yo' });
      expect(root.attributes['obs.observation.input']).not.toContain('dropped');
      expect(JSON.parse(root.attributes['obs.observation.output'] as string)).toEqual({ status: 200, answer: 'echo yo' });
    });

    it('custom redactKeys replace the defaults', async () => {
      const custom = buildApp(express, { redactKeys: ['message'] });
      const res = await request(custom).post('/chat/1').send({ message: 'private', password: 'visible-now' });
      const { root } = await traceOf(h, res);
      expect(JSON.parse(root.attributes['obs.observation.input'] as string)).toEqual({ message: '[REDACTED]', password: 'visible-now' });
    });
  });
});
