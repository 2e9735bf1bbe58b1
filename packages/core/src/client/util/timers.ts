/** Lets the process exit while `timer` is pending: `unref` of `util/timers.ts`, under the name the score queue imports. */
export { unref as unrefTimer } from '../../util/timers.js';
