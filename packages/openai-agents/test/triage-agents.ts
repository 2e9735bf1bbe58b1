/**
 * The agents the Agents SDK tests run, here and in the viewer's test (tests/viewer-agents.test.ts):
 * a triage agent that hands off to a writer, which calls the weather tool. The model turns that
 * drive them are each test's own script on the stand-in API.
 */
import { Agent, type OpenAIChatCompletionsModel, tool } from '@openai/agents';
import { z } from 'zod';

const weather = tool({
  name: 'weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
});

/** The triage agent and the writer it hands off to, both on `model` (else the SDK's default Responses model). */
export function triageAgents(model?: OpenAIChatCompletionsModel) {
  const writer = new Agent({ name: 'Writer', instructions: 'Write the answer.', tools: [weather], ...(model ? { model } : {}) });
  const triage = new Agent({ name: 'Triage', instructions: 'Route the question.', handoffs: [writer], ...(model ? { model } : {}) });
  return { triage, writer };
}
