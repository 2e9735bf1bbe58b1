// @obs/next: registerObs() as instrumentation.ts calls it in a Next.js server's Node.js runtime,
// and one observation (a real Next.js server's first request: ../next.mjs).
import { startActiveObservation } from '@obs/core';
import { registerObs } from '@obs/next';

globalThis.coldMark?.('imported');
registerObs();
globalThis.coldMark?.('init');
startActiveObservation('cold-start', (span) => span.update({ input: 'one', output: 'two' }));
globalThis.coldMark?.('span');
