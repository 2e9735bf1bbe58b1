// Instructions per request of the Nest bench's variants, counted by valgrind instead of timed
// (see ../lib/instruction-count.mjs), as the Express bench's are. The defaults are the variants
// and the window (requests 12,000 to 20,000) of the figures in ../RESULTS.md.
//
//   COUNT_NODE_FLAGS=--single-threaded node bench/nest/instructions.mjs \
//     [variants=plain,interceptor,obs] [from=12000] [to=20000]
//   (TOP=n also lists the n functions most above plain; needs valgrind, and setarch for fixed
//   addresses: apt-get install -y valgrind; about 8 minutes for the defaults on 2 cores)
import { countFromCommandLine } from '../lib/instruction-count.mjs';

await countFromCommandLine(new URL('./app.mjs', import.meta.url), { variants: 'plain,interceptor,obs', from: 12000, to: 20000 });
