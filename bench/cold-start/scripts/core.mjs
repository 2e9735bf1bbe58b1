// @obs/core: import, initObs() with the defaults (keys from the environment), one observation;
// the span leaves with obs's flush at exit, as in a CLI.
import { initObs, startActiveObservation } from '@obs/core';

globalThis.coldMark?.('imported');
initObs();
globalThis.coldMark?.('init');
startActiveObservation('cold-start', (span) => span.update({ input: 'one', output: 'two' }));
globalThis.coldMark?.('span');
