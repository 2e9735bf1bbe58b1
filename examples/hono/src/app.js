// A Hono app traced with @obs/hono, the same on Node.js, Bun, Deno and Cloudflare Workers: a
// LangChain chain on a fake chat model (traced with @obs/langchain) answering as JSON and as
// server-sent events, behind auth middleware whose user `identify` turns into the trace's user.
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { obs } from '@obs/hono';
import { CallbackHandler } from '@obs/langchain';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { streamSSE } from 'hono/streaming';

const USERS = { 'token-alice': { id: 'alice', plan: 'pro' }, 'token-bob': { id: 'bob', plan: 'free' } };

const prompt = ChatPromptTemplate.fromMessages([
  ['system', 'You answer questions about observability in one sentence.'],
  ['human', '{question}'],
]);
const chain = () =>
  prompt
    .pipe(new FakeListChatModel({ responses: ['An observation is one node of a trace: a span, a generation, a tool call.'], sleep: 2 }))
    .pipe(new StringOutputParser());

/** Creates the app: Workers, Bun and Deno serve `app` itself; `server.js` and `demo.mjs` serve it on Node.js. */
export function createApp() {
  const app = new Hono();
  app.use(
    obs({
      identify: (c) => ({
        userId: c.get('user')?.id,
        sessionId: c.req.header('x-session-id'),
        tags: ['example', 'hono'],
        metadata: { plan: c.get('user')?.plan },
      }),
    }),
  );
  // Auth middleware, after obs as apps mount it.
  app.use('/api/*', async (c, next) => {
    const user = USERS[c.req.header('authorization')?.replace(/^Bearer /, '') ?? ''];
    if (!user) throw new HTTPException(401, { message: 'unknown token' });
    c.set('user', user);
    await next();
  });
  app.post('/api/chat/:conversationId', async (c) => {
    const { question } = await c.req.json();
    if (typeof question !== 'string' || !question) return c.json({ error: 'question is required' }, 400);
    const answer = await chain().invoke({ question }, { callbacks: [new CallbackHandler()], runName: 'answer-question' });
    return c.json({ conversationId: c.req.param('conversationId'), answer });
  });
  // The answer streamed as server-sent events, token by token.
  app.get('/api/chat/:conversationId/stream', (c) =>
    streamSSE(c, async (sse) => {
      const stream = await chain().stream(
        { question: c.req.query('q') ?? 'what is an observation?' },
        { callbacks: [new CallbackHandler()] },
      );
      for await (const token of stream) await sse.writeSSE({ data: JSON.stringify({ token }) });
      await sse.writeSSE({ data: '[DONE]' });
    }),
  );
  app.get('/api/chat/:conversationId/history', (c) => c.json({ error: `no conversation ${c.req.param('conversationId')}` }, 404));
  app.onError((err, c) =>
    err instanceof HTTPException ? c.json({ error: err.message }, err.status) : c.json({ error: err.message }, 500),
  );
  return app;
}
