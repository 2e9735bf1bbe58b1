// The chain both LangChain benches run: prompt -> fake chat model -> parser (4 runs per invocation).
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { FakeListChatModel } from '@langchain/core/utils/testing';

/** A new instance of the benched chain. */
export function benchChain() {
  return ChatPromptTemplate.fromMessages([
    ['system', 'You are a concise assistant.'],
    ['human', '{question}'],
  ])
    .pipe(new FakeListChatModel({ responses: ['The answer is 42.'] }))
    .pipe(new StringOutputParser());
}
