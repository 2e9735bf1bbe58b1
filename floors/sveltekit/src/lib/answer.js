import { observe } from '@obs/core';

/** A model call, as an LLM app would make one: a generation inside the load, action or endpoint that made it. */
export const answer = observe(async (question) => `You asked: ${question}`, { name: 'answer', asType: 'generation' });
