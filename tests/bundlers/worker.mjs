// A Cloudflare Worker as wrangler bundles one (`wrangler deploy --dry-run`): Hono with @obs/hono,
// each request's spans flushed through waitUntil after the response.
import { observe } from '@obs/core';
import { obs } from '@obs/hono';
import { Hono } from 'hono';

const answer = observe(async (question) => `You asked: ${question}`, { name: 'answer', asType: 'generation' });

const app = new Hono();
app.use(obs());
app.get('/chat/:id', async (c) => c.json({ answer: await answer(c.req.query('q') ?? '') }));

export default app;
