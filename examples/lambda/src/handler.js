// A Lambda function traced with @obs/lambda: an HTTP API route answering with a LangChain chain on
// a fake chat model (traced with @obs/langchain), the caller identified from the JWT authorizer's
// claims; the same function also consumes an SQS queue of questions (one child per message).
// Deployed as `handler` with OBS_BASE_URL, OBS_PUBLIC_KEY and OBS_SECRET_KEY in its environment.
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { wrapHandler } from '@obs/lambda';
import { CallbackHandler } from '@obs/langchain';

const prompt = ChatPromptTemplate.fromMessages([
  ['system', 'You answer questions about observability in one sentence.'],
  ['human', '{question}'],
]);
const chain = () =>
  prompt
    .pipe(new FakeListChatModel({ responses: ['A frozen Lambda sandbox sends nothing: deliver before you return.'], sleep: 2 }))
    .pipe(new StringOutputParser());

const answer = (question) => chain().invoke({ question }, { callbacks: [new CallbackHandler()] });

export const handler = wrapHandler(
  async (event) => {
    // An SQS batch of questions.
    if (Array.isArray(event.Records)) {
      for (const record of event.Records) await answer(JSON.parse(record.body).question);
      return { batchItemFailures: [] };
    }
    const { question } = JSON.parse(event.body ?? '{}');
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answer: await answer(question) }) };
  },
  {
    identify: (event) => {
      const claims = event.requestContext?.authorizer?.jwt?.claims;
      return claims ? { userId: claims.sub, sessionId: event.headers?.['x-session-id'], tags: ['example', 'lambda'] } : undefined;
    },
  },
);
