// Instructions per request of the Express bench's variants, counted by valgrind instead of timed
// (see ../lib/instruction-count.mjs), where timed rounds on this VM spread by ±20 µs: the JIT-code,
// GC and gzip shares repeat within a few thousand instructions, the inline-cache share less so
// (../RESULTS.md, issue 16 fourth pass).
//
//   node bench/express/instructions.mjs [variants=plain,als,light-root,otel-root,obs,obs-identify] [from=10000] [to=25000]
//   (TOP=n also lists the n functions most above plain; needs valgrind, and setarch for fixed
//   addresses: apt-get install -y valgrind; about 13 minutes for the defaults on 2 cores)
import { countFromCommandLine } from '../lib/instruction-count.mjs';

await countFromCommandLine(new URL('./app.mjs', import.meta.url), 'plain,als,light-root,otel-root,obs,obs-identify');
