// What a Next.js server has loaded before obs runs and what @obs/next imports from it
// (`next/server`'s after()): the baseline of next.mjs, as express-plain.mjs is express.mjs's.
import { after } from 'next/server.js';

globalThis.coldMark?.('imported');
void after;
