// The model call of the test handlers, shared by the freeze suite's handlers (run in the stand-in
// runtime, plain JavaScript) and wrap-handler.test.ts (in the test's own process): a generation
// that echoes the question.
import { startActiveObservation } from '@obs/core';

/**
 * A generation named `answer`: the question in, `echo: <question>` out.
 * @param {string} question
 * @returns {Promise<string>}
 */
export const answer = (question) =>
  startActiveObservation(
    'answer',
    async (o) => {
      o.update({ input: question, output: `echo: ${question}` });
      return `echo: ${question}`;
    },
    { asType: 'generation' },
  );
