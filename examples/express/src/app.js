// An Express 5 app traced with @obs/express: one LLM-ish JSON route (a LangChain chain on a
// fake chat model, traced with @obs/langchain), one route streaming the answer as server-sent
// events, and assistant routes calling models the other ways (`assist.js`: the Vercel AI SDK,
// the OpenAI SDK through @obs/openai, an image). `identify` turns the bearer token that auth
// middleware resolved into the trace's user and session.
import express from 'express';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { CallbackHandler } from '@obs/langchain';
import { obsErrorHandler, obsMiddleware } from '@obs/express';
import { assistRoutes } from './assist.js';
import { fakeOpenAI } from './fake-openai.js';

const USERS = { 'token-alice': { id: 'alice', plan: 'pro' }, 'token-bob': { id: 'bob', plan: 'free' } };

/** What auth middleware does: resolve the bearer token to a user on `req.user`. */
function authenticate(req, res, next) {
  const token = req.get('authorization')?.replace(/^Bearer /, '');
  req.user = token ? USERS[token] : undefined;
  if (!req.user) return res.status(401).json({ error: 'unknown token' });
  next();
}

const prompt = ChatPromptTemplate.fromMessages([
  ['system', 'You answer questions about observability in one sentence.'],
  ['human', '{question}'],
]);

function model() {
  return new FakeListChatModel({
    responses: ['A trace is the tree of observations one request made, from the HTTP root to each LLM call.'],
    sleep: 2,
  });
}

/** Creates the app (no listening: `server.js` and `demo.mjs` do that). */
export function createApp() {
  const app = express();
  // The stand-in OpenAI endpoint the assistant calls: mounted first, so it is not traced itself.
  app.use('/fake-openai', fakeOpenAI());
  app.use(
    obsMiddleware({
      identify: (req) => ({
        userId: req.user?.id,
        sessionId: req.get('x-session-id'),
        tags: ['example', 'express'],
        metadata: { plan: req.user?.plan },
      }),
    }),
  );
  app.use(express.json({ limit: '10mb' }));
  app.use('/api', authenticate);

  const chat = express.Router();

  // JSON answer from a LangChain chain; its runs nest under the request's root observation.
  chat.post('/:conversationId', async (req, res) => {
    const question = req.body?.question;
    if (typeof question !== 'string' || !question) return res.status(400).json({ error: 'question is required' });
    const chain = prompt.pipe(model()).pipe(new StringOutputParser());
    const answer = await chain.invoke({ question }, { callbacks: [new CallbackHandler()], runName: 'answer-question' });
    res.json({ conversationId: req.params.conversationId, answer });
  });

  // The same answer streamed as server-sent events, token by token.
  chat.get('/:conversationId/stream', async (req, res) => {
    res.setHeader('content-type', 'text/event-stream');
    res.setHeader('cache-control', 'no-cache');
    res.flushHeaders();
    const chain = prompt.pipe(model()).pipe(new StringOutputParser());
    const stream = await chain.stream({ question: String(req.query.q ?? 'what is a trace?') }, { callbacks: [new CallbackHandler()] });
    for await (const token of stream) {
      if (res.destroyed) break;
      res.write(`data: ${JSON.stringify({ token })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  });

  chat.get('/:conversationId/history', (req, res) => {
    res.status(404).json({ error: `no conversation ${req.params.conversationId}` });
  });

  app.use('/api/chat', chat);
  app.use('/api/assist', assistRoutes());
  app.use(obsErrorHandler());
  app.use((err, _req, res, _next) => {
    res.status(err.status ?? 500).json({ error: err.message });
  });
  return app;
}
