// `npm run demo` (from the repository's root) runs the example's eval suite against the demo's
// obs server: vitest, in replay mode (the recorded model calls in evals/__obs_cache__/), one
// dataset run with its items' traces and scores. OBS_* come from the root demo script.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const child = spawn(process.execPath, [vitest, 'run'], {
  cwd: import.meta.dirname,
  stdio: 'inherit',
  env: { ...process.env, OBS_EVAL_CACHE: 'replay' },
});
child.on('exit', (code) => process.exit(code ?? 1));
