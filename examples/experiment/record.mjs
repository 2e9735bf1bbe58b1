// `npm run record`: records the eval's model calls into evals/__obs_cache__/ (commit it). By
// default against the stand-in model (no key needed); with OPENAI_BASE_URL and OPENAI_API_KEY set,
// against that model instead.
import { spawn } from 'node:child_process';
import { startStandInModel } from './stand-in-model.mjs';

const standIn = process.env.OPENAI_BASE_URL ? undefined : await startStandInModel(4010);
const vitest = spawn('npx', ['vitest', 'run'], { stdio: 'inherit', env: { ...process.env, OBS_EVAL_CACHE: 'record' } });
const code = await new Promise((resolve) => vitest.on('exit', (c) => resolve(c ?? 1)));
await standIn?.close();
process.exit(code);
