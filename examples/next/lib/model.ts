import { FakeListChatModel } from '@langchain/core/utils/testing';

/** A LangChain chat model that answers from a list: the example needs no API key and no network. */
export function chatModel(responses: string[] = ['Paris is the capital of France.']): FakeListChatModel {
  return new FakeListChatModel({ responses });
}
