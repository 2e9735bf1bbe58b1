#!/usr/bin/env node
/**
 * `npx obs doctor`: checks the obs set-up of this environment (OBS_* variables) against the
 * server it names and prints what to fix. Exits 0 when everything is fine, 1 otherwise.
 */
import { diagnose } from './setup/diagnose.js';

const USAGE = `Usage: obs doctor [--base-url <url>] [--timeout <seconds>]

Checks OBS_PUBLIC_KEY, OBS_SECRET_KEY and OBS_BASE_URL: present and without stray whitespace,
the server reachable, the keys accepted, the clock in sync. Prints what to fix.`;

const [command, ...rest] = process.argv.slice(2);
if (command !== 'doctor') {
  console.log(USAGE);
  process.exit(command === undefined || command === '-h' || command === '--help' ? 0 : 1);
}
const flag = (name: string) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const timeout = flag('--timeout');
const result = await diagnose({ baseUrl: flag('--base-url'), ...(timeout !== undefined && { timeout: Number(timeout) }), print: true });
process.exit(result.ok ? 0 : 1);
