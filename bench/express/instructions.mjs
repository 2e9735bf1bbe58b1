// Instructions per request of the Express bench's variants, counted by valgrind instead of timed
// (see ../lib/instruction-count.mjs): on this shared VM timed rounds of one variant spread by
// ±20-100 µs, more than the differences looked for. The defaults are the variants and the steady
// window (requests 15,000 to 25,000, past obs's warm-up) of the figures in ../RESULTS.md.
//
//   COUNT_NODE_FLAGS=--single-threaded node bench/express/instructions.mjs \
//     [variants=plain,otel-noio,light-noexport,light-root,obs,obs-identify] [from=15000] [to=25000]
//   (TOP=n also lists the n functions most above plain; needs valgrind, and setarch for fixed
//   addresses: apt-get install -y valgrind; about 15 minutes for the defaults on 2 cores)
import { countFromCommandLine } from '../lib/instruction-count.mjs';

await countFromCommandLine(new URL('./app.mjs', import.meta.url), {
  variants: 'plain,otel-noio,light-noexport,light-root,obs,obs-identify',
  from: 15000,
  to: 25000,
});
