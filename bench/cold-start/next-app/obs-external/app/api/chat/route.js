// POST /api/chat { question } -> { answer }: the plain app's handler wrapped in withObs, its step
// one observation: two spans per request.
import { observe } from '@obs/core';
import { withObs } from '@obs/next';

const answer = observe(
  async (question) => {
    await new Promise((resolve) => setImmediate(resolve));
    return String(question).includes('Portugal') ? 'Lisbon' : 'unknown';
  },
  { name: 'answer', asType: 'generation' },
);

export const POST = withObs(async (req) => {
  const { question } = await req.json();
  return Response.json({ answer: await answer(question) });
});
