'use server';
// @ts-check
import { observe } from '@obs/core';
import { invokeModel } from '../lib/chat';

/** One traced step of the action: a chain observation with the model's generation under it. */
const answerQuestion = observe(
  /** @param {string} question */
  async (question) => invokeModel([['human', question]], [`You asked: ${question}. The answer is 42.`]),
  { name: 'answer-question', asType: 'chain' },
);

/**
 * Server action: `observe` works as anywhere else; its observations land in the trace Next.js made for
 * the action's request (no route handler wrapper needed).
 * @param {string} question
 */
export async function ask(question) {
  const answer = await answerQuestion(String(question ?? ''));
  return { answer };
}

/** The form version of `ask`. @param {FormData} formData */
export async function askForm(formData) {
  await ask(String(formData.get('question') ?? ''));
}
