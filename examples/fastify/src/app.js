// A Fastify 5 app traced with @obs/fastify: a LangChain chain on a fake chat model (traced with
// @obs/langchain) answering as JSON and as server-sent events, behind an auth hook whose user
// `identify` turns into the trace's user and session.
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { obsPlugin } from '@obs/fastify';
import { CallbackHandler } from '@obs/langchain';
import Fastify from 'fastify';

const USERS = { 'token-alice': { id: 'alice', plan: 'pro' }, 'token-bob': { id: 'bob', plan: 'free' } };

const prompt = ChatPromptTemplate.fromMessages([
  ['system', 'You answer questions about observability in one sentence.'],
  ['human', '{question}'],
]);
const chain = () =>
  prompt
    .pipe(new FakeListChatModel({ responses: ['A span is one timed step of a trace, with its input, output and parent.'], sleep: 2 }))
    .pipe(new StringOutputParser());

/** Creates the app (no listening: `server.js` and `demo.mjs` do that). */
export async function createApp() {
  const app = Fastify();
  await app.register(obsPlugin, {
    identify: (request) => ({
      userId: request.user?.id,
      sessionId: request.headers['x-session-id'],
      tags: ['example', 'fastify'],
      metadata: { plan: request.user?.plan },
    }),
  });
  await app.register(
    async (api) => {
      // Auth as Fastify apps write it: a hook on the plugin's routes.
      api.addHook('onRequest', async (request, reply) => {
        request.user = USERS[request.headers.authorization?.replace(/^Bearer /, '') ?? ''];
        if (!request.user) return reply.code(401).send({ error: 'unknown token' });
      });
      api.post('/chat/:conversationId', async (request, reply) => {
        const question = request.body?.question;
        if (typeof question !== 'string' || !question) return reply.code(400).send({ error: 'question is required' });
        const answer = await chain().invoke({ question }, { callbacks: [new CallbackHandler()], runName: 'answer-question' });
        return { conversationId: request.params.conversationId, answer };
      });
      // The answer streamed as server-sent events, token by token.
      api.get('/chat/:conversationId/stream', async (request, reply) => {
        reply.hijack();
        reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const stream = await chain().stream(
          { question: String(request.query.q ?? 'what is a span?') },
          { callbacks: [new CallbackHandler()] },
        );
        for await (const token of stream) reply.raw.write(`data: ${JSON.stringify({ token })}\n\n`);
        reply.raw.end('data: [DONE]\n\n');
      });
      api.get('/chat/:conversationId/history', async (request, reply) =>
        reply.code(404).send({ error: `no conversation ${request.params.conversationId}` }),
      );
    },
    { prefix: '/api' },
  );
  return app;
}
