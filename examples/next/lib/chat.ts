import type { BaseMessageLike } from '@langchain/core/messages';
import { CallbackHandler } from '@obs/langchain';
import { chatModel } from './model';

/**
 * Calls the model with the `@obs/langchain` CallbackHandler: the run becomes a generation nested under
 * the active observation (the request's root), carrying the request's user and session.
 */
export async function invokeModel(messages: BaseMessageLike[], responses?: string[]): Promise<string> {
  const reply = await chatModel(responses).invoke(messages, { callbacks: [new CallbackHandler()] });
  return typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content);
}
