// The agent both agents benches run: one function tool, `weather`, and a fixed instruction; a run
// of `run(agent, QUESTION)` against fake-responses-process.mjs is two turns and answers ANSWER.
import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

export const QUESTION = 'Weather in Paris?';
export const ANSWER = 'Sunny in Paris.';

const weather = tool({
  name: 'weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
});
export const agent = new Agent({ name: 'Forecaster', instructions: 'Answer briefly.', tools: [weather] });
