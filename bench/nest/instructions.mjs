// Instructions per request of the Nest bench's variants, counted by valgrind instead of timed
// (see ../lib/instruction-count.mjs): deterministic enough to compare changes of a few thousand
// instructions, where timed rounds on this VM spread by ±20 µs.
//
//   node bench/nest/instructions.mjs [variants=plain,interceptor,obs] [from=10000] [to=25000]
//   (TOP=n also lists the n functions most above plain; needs valgrind, and setarch for fixed
//   addresses: apt-get install -y valgrind; about 8 minutes for the defaults on 2 cores)
import { fileURLToPath } from 'node:url';
import { countInstructions } from '../lib/instruction-count.mjs';

const [variants = 'plain,interceptor,obs', from = '10000', to = '25000'] = process.argv.slice(2);
await countInstructions({
  appScript: fileURLToPath(new URL('./app.mjs', import.meta.url)),
  variants: variants.split(','),
  from: Number(from),
  to: Number(to),
  top: Number(process.env.TOP ?? 0),
});
