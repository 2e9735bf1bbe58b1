// @ts-check
import { startActiveObservation } from '@obs/core';
import { withObs } from '@obs/next';
import { after } from 'next/server';

/**
 * POST /api/after  { "message": "..." } -> { "answer" } at once; the answer is evaluated in
 * `after()`, once the response has gone. The evaluation nests under the request's trace, and is
 * delivered before the function may freeze like the rest of it.
 */
export const POST = withObs(
  /** @param {Request} req */
  async (req) => {
    const { message } = await req.json();
    const answer = `You asked: ${message}`;
    after(async () => {
      // Work the user need not wait for (here: a judge call of a few ms).
      await new Promise((resolve) => setTimeout(resolve, 5));
      await startActiveObservation(
        'evaluate answer',
        async (evaluation) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          evaluation.update({ input: answer, output: { relevant: true } });
        },
        { asType: 'evaluator' },
      );
    });
    return Response.json({ answer });
  },
);
