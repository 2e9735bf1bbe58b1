import { observe } from '@obs/core';

/** A model call, as an LLM app would make one: a generation inside the route that made it. */
export const answer = observe(async (question: string) => `You asked: ${question}`, { name: 'answer', asType: 'generation' });
