// Instructions per agent run (two turns) of each OpenAI Agents SDK instrumentation above the SDK's
// tracing with no processor, counted by valgrind instead of timed (see ../lib/instruction-count.mjs):
// each setup alone in a process (run-one.mjs), as its docs set it up, with `from` and `to` runs;
// the difference per run is the steady state, export included. run.mjs times the same setups in
// one process.
//
//   COUNT_NODE_FLAGS=--single-threaded node bench/agents/instructions.mjs [--from 200] [--to 500]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countInstructions } from '../lib/instruction-count.mjs';

const { values } = parseArgs({ options: { from: { type: 'string', default: '200' }, to: { type: 'string', default: '500' } } });
console.log('0 = the SDK tracing, no processor; 1 = @obs/openai-agents; 2 = OpenInference openai-agents');
await countInstructions({
  script: fileURLToPath(new URL('./run-one.mjs', import.meta.url)),
  variants: ['0', '1', '2'],
  base: '0',
  from: Number(values.from),
  to: Number(values.to),
  top: Number(process.env.TOP ?? 0),
  unit: 'run',
});
