// An experiment over a small dataset: the task is a LangChain chain (a fake chat model, no
// network) built from a managed chat prompt, scored by two evaluators and one run evaluator.
// Reads OBS_BASE_URL, OBS_PUBLIC_KEY and OBS_SECRET_KEY from the environment (the root
// `npm run demo` sets them against the local obs server).
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { initObs } from '@obs/core';
import { CallbackHandler } from '@obs/langchain';

const obs = initObs({ flushOnExit: false });
const { client } = obs;

// 1. A dataset with four items (the local server keeps them).
await client.api.datasets.create({ name: 'capitals', description: 'capital cities' });
const rows = [
  ['France', 'Paris'],
  ['Japan', 'Tokyo'],
  ['Peru', 'Lima'],
  ['Australia', 'Canberra'],
];
for (const [country, capital] of rows) {
  await client.dataset.createItem({
    datasetName: 'capitals',
    id: `capital-${country.toLowerCase()}`,
    input: { country },
    expectedOutput: capital,
  });
}

// 2. A managed chat prompt, read through the cache and turned into a LangChain template.
await client.prompt.create({
  type: 'chat',
  name: 'capital-question',
  labels: ['production'],
  prompt: [
    { role: 'system', content: 'Answer with the city name only.' },
    { role: 'user', content: 'What is the capital of {{country}}?' },
  ],
});
const prompt = await client.prompt.get('capital-question', { type: 'chat' });
const model = new FakeListChatModel({ responses: ['Paris', 'Tokyo', 'Lima', 'Sydney'] });
// `obsPrompt` links the generation to this prompt version (skipped for a fallback prompt).
const template = ChatPromptTemplate.fromMessages(prompt.getLangchainPrompt()).withConfig({ metadata: { obsPrompt: prompt } });
const chain = template.pipe(model).pipe(new StringOutputParser());

// 3. The experiment: one trace per item, the chain nested inside, scores per item and per run.
const dataset = await client.dataset.get('capitals');
const result = await dataset.runExperiment({
  name: 'capitals',
  runName: 'capitals - fake model',
  description: 'FakeListChatModel answering capital questions',
  metadata: { prompt: `${prompt.name} v${prompt.version}` },
  maxConcurrency: 1, // the fake model answers in order
  task: (item) => chain.invoke(item.input, { callbacks: [new CallbackHandler()] }),
  evaluators: [
    function exactMatch({ output, expectedOutput }) {
      return { name: 'exact_match', value: output === expectedOutput ? 1 : 0 };
    },
    function answerLength({ output }) {
      return { name: 'short_answer', value: String(output).length <= 20, comment: `${String(output).length} characters` };
    },
  ],
  runEvaluators: [
    function accuracy({ itemResults }) {
      const hits = itemResults.filter((r) => r.evaluations.some((e) => e.name === 'exact_match' && e.value === 1)).length;
      return { name: 'accuracy', value: hits / itemResults.length };
    },
  ],
});

console.log(result.format({ includeItemResults: true }));
await obs.shutdown();
console.log('examples/experiment: done (every span and score flushed before the result resolved)');
