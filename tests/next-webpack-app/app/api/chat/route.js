import { observe } from '@obs/core';
import { withObs } from '@obs/next';

const answer = observe(async (question) => `You asked: ${question}`, { name: 'answer', asType: 'generation' });

export const POST = withObs(async (req) => Response.json({ answer: await answer((await req.json()).message) }));
