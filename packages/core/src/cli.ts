#!/usr/bin/env node
/**
 * `npx @obs/core doctor` (anywhere: npx fetches @obs/core when the folder has none), or
 * `npx obs-doctor` in an app that has @obs/core (a bin name no other package owns): checks the
 * obs set-up of this environment (OBS_* variables) against the server it names and prints what to
 * fix. Exits 0 when everything is fine, 1 otherwise.
 */
import { diagnose } from './index.js';

const USAGE = `Usage: npx @obs/core doctor [--base-url <url>] [--timeout <seconds>]
       (in an app with @obs/core installed: npx obs-doctor [...])

Checks OBS_PUBLIC_KEY, OBS_SECRET_KEY and OBS_BASE_URL: present and without stray whitespace,
the server reachable, the keys accepted, the clock in sync. Prints what to fix.`;

const args = process.argv.slice(2);
// `doctor` is the one command, so it may be left out (`npx obs-doctor`).
const rest = args[0] === 'doctor' ? args.slice(1) : args;
if (rest.includes('-h') || rest.includes('--help') || (rest[0] !== undefined && !rest[0].startsWith('--'))) {
  console.log(USAGE);
  process.exit(rest.includes('-h') || rest.includes('--help') ? 0 : 1);
}
const flag = (name: string) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const timeout = flag('--timeout');
const result = await diagnose({ baseUrl: flag('--base-url'), ...(timeout !== undefined && { timeout: Number(timeout) }), print: true });
process.exit(result.ok ? 0 : 1);
