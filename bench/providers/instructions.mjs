// Instructions per model call of each wrapper above the unwrapped SDK, counted by valgrind instead
// of timed (see ../lib/instruction-count.mjs): on this shared VM the timed extras of run.mjs move by
// ±50 % between runs. Each setup runs alone in a process (call-one.mjs) with `from` and `to` calls;
// the difference per call is the steady state, export included.
//
//   node bench/providers/instructions.mjs --provider anthropic [--stream] [--setups 0,1,2] [--from 300] [--to 800]
//   (TOP=n also lists the n functions most above the unwrapped client; needs valgrind)
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countInstructions } from '../lib/instruction-count.mjs';

const { values } = parseArgs({
  options: {
    provider: { type: 'string', default: 'anthropic' },
    stream: { type: 'boolean', default: false },
    setups: { type: 'string', default: '0,1,2' },
    from: { type: 'string', default: '300' },
    to: { type: 'string', default: '800' },
  },
});
process.env.BENCH_PROVIDER = values.provider;
if (values.stream) process.env.BENCH_STREAM = '1';
const provider = await import(`./${values.provider}.mjs`);
const indices = values.setups.split(',');
console.log(
  `${provider.setups[0].name.split(',')[0]} \`${provider.label}\`${values.stream ? ' (stream, read to the end)' : ''}: ` +
    indices.map((i) => `${i} = ${provider.setups[Number(i)].name}`).join('; '),
);
await countInstructions({
  script: fileURLToPath(new URL('./call-one.mjs', import.meta.url)),
  variants: indices,
  base: '0',
  from: Number(values.from),
  to: Number(values.to),
  top: Number(process.env.TOP ?? 0),
  unit: 'call',
});
