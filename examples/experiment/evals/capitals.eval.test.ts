// The example experiment as a vitest suite: the `capitals` dataset's items, answered by a model
// through the OpenAI SDK (each call an obs generation under its item), two evaluators per item,
// one for the run, and thresholds that fail the suite. `npm test` replays the recorded calls from
// __obs_cache__/ (no key, no network); `npm run record` records them again.
import { observeOpenAI } from '@obs/openai';
import { describeEval } from '@obs/vitest';
import OpenAI from 'openai';

// Made at module load; the recorder sits below fetch, so it still sees every call.
const openai = observeOpenAI(
  new OpenAI({
    // The stand-in model `npm run record` starts; set OPENAI_BASE_URL (and OPENAI_API_KEY) for a real one.
    baseURL: process.env.OPENAI_BASE_URL ?? 'http://127.0.0.1:4010/v1',
    apiKey: process.env.OPENAI_API_KEY ?? 'replayed-calls-need-no-key',
  }),
);

describeEval<{ id: string; input: { country: string }; expectedOutput: string }>('capitals', {
  data: { dataset: 'capitals' },
  description: 'capital-city questions, one model call each',
  metadata: { model: 'stand-in-capitals' },
  concurrency: 3,
  task: async ({ input }) => {
    const completion = await openai.chat.completions.create({
      model: 'stand-in-capitals',
      messages: [
        { role: 'system', content: 'Answer with the city name only.' },
        { role: 'user', content: `What is the capital of ${input.country}?` },
      ],
    });
    return completion.choices[0]?.message.content ?? '';
  },
  evaluators: [
    function exactMatch({ output, expectedOutput }) {
      return { name: 'exact_match', value: output === expectedOutput };
    },
    function answerLength({ output }) {
      return { name: 'short_answer', value: String(output).length <= 20, comment: `${String(output).length} characters` };
    },
  ],
  runEvaluators: [
    function accuracy({ itemResults }) {
      const hits = itemResults.filter((r) => r.evaluations.some((e) => e.name === 'exact_match' && e.value === true)).length;
      return { name: 'accuracy', value: hits / itemResults.length };
    },
  ],
  // The stand-in gets Australia wrong: 5 of 6.
  thresholds: { exact_match: 0.8, short_answer: 1 },
});
