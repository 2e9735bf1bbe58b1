// A function that handles one event and exits, without tracing (the baseline of fn-obs.mjs): it
// reads the event, runs one step, writes its answer to stdout (the runner's first byte) and ends.
const event = { id: 'evt-1', question: 'Capital of Portugal?' };

async function answer(question) {
  await new Promise((resolve) => setImmediate(resolve));
  return question.includes('Portugal') ? 'Lisbon' : 'unknown';
}

async function handle(e) {
  return { id: e.id, answer: await answer(e.question) };
}

globalThis.coldMark?.('imported');
process.stdout.write(`${JSON.stringify(await handle(event))}\n`);
globalThis.coldMark?.('answered');
