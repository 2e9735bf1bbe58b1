// Instructions per invocation of the LangChain bench's setups, counted by valgrind instead of
// timed (see ../lib/instruction-count.mjs): item 3 of issue 16 is a ratio of two extras above the
// empty handler, and on a shared VM the timed extras move by ±30 % from run to run. Each setup
// runs alone in a process (invoke-one.mjs) with `from` and `to` invocations; the difference per
// invocation is the steady state, export included.
//
//   node bench/langchain/instructions.mjs [setups=empty,obs,langfuse] [from=6000] [to=12000]
//   (TOP=n also lists the n functions most above the empty handler; needs valgrind)
import { fileURLToPath } from 'node:url';
import { countInstructions } from '../lib/instruction-count.mjs';

const [names = 'empty,obs,langfuse', from = '6000', to = '12000'] = process.argv.slice(2);
const { totals, byKind } = await countInstructions({
  script: fileURLToPath(new URL('./invoke-one.mjs', import.meta.url)),
  variants: names.split(','),
  from: Number(from),
  to: Number(to),
  top: Number(process.env.TOP ?? 0),
  base: 'empty',
  unit: 'invocation',
});
// The JIT compilers' share moves by hundreds of thousands of instructions between runs of the
// same code (compile jobs run on threads valgrind serialises), so the share is given without it too.
const COMPILERS = 'JIT compilers and parser';
const steady = (v) => totals[v] - byKind[v][COMPILERS];
if (totals.langfuse !== undefined) {
  for (const v of Object.keys(totals).filter((n) => n !== 'empty' && n !== 'langfuse')) {
    const all = (100 * (totals[v] - totals.empty)) / (totals.langfuse - totals.empty);
    const noJit = (100 * (steady(v) - steady('empty'))) / (steady('langfuse') - steady('empty'));
    console.log(
      `\n${v}: ${all.toFixed(1)} % of Langfuse's extra instructions per invocation; ${noJit.toFixed(1)} % without the JIT compilers' share`,
    );
  }
}
