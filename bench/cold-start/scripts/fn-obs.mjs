// The function of fn-plain.mjs traced with @obs/core: initObs() (exportMode from
// $COLD_EXPORT_MODE: the default batches and flushes at exit, `immediate` sends each span as it
// ends), the handler and its step as two observations; the process exits on its own.
import { initObs, observe } from '@obs/core';

const event = { id: 'evt-1', question: 'Capital of Portugal?' };

const answer = observe(
  async (question) => {
    await new Promise((resolve) => setImmediate(resolve));
    return question.includes('Portugal') ? 'Lisbon' : 'unknown';
  },
  { name: 'answer', asType: 'generation' },
);

const handle = observe(async (e) => ({ id: e.id, answer: await answer(e.question) }), { name: 'handle-event' });

globalThis.coldMark?.('imported');
initObs(process.env.COLD_EXPORT_MODE ? { exportMode: process.env.COLD_EXPORT_MODE } : {});
globalThis.coldMark?.('init');
process.stdout.write(`${JSON.stringify(await handle(event))}\n`);
globalThis.coldMark?.('answered');
