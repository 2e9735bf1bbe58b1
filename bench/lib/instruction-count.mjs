// Instructions per request of a bench app's variants, counted by valgrind (cachegrind) instead of
// timed: on this shared VM single timed rounds of one variant differ by ±20 µs. Each variant runs
// in-process with injected requests (inject-one.mjs) twice, with `from` and `to` requests; the
// difference divided by `to - from` is the steady state per request (start-up, module loading and
// the first JIT compilations cancel out). The local obs server runs in a child process that valgrind
// does not follow. Instructions are not time (IPC and cache misses differ), so read the figures as
// "how much work", next to the timed benches.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const injector = fileURLToPath(new URL('./inject-one.mjs', import.meta.url));

/** Where the instructions went, by kind of work (V8, zlib and libc symbols; JIT code has none). */
const KINDS = [
  ['JIT-compiled JavaScript', /^\?\?\?:\?\?\?$/],
  [
    'inline caches and property lookups',
    /IC\b|IC_|Megamorphic|LookupIterator|DescriptorArray|StubCache|FeedbackNexus|LoadHandler|StoreHandler|PrototypesFast|PrototypeChecks/,
  ],
  [
    'garbage collection',
    /Scaveng|Marking|MarkCompact|Sweep|heap::|Evacuat|IteratePointers|SizeFromMap|Pretenuring|Remembered|SlotSet|RecordWrite/,
  ],
  ['JIT compilers and parser', /compiler::|turboshaft|maglev|Maglev|Zone|Baseline.*Compil|interpreter::|Scanner|Parser|AstValue/],
  ['gzip (zlib)', /deflate|compress_block|longest_match|crc32|adler32|fill_window|send_bits|build_tree|pqdownheap|gen_bitlen|_tr_/],
  ['other builtins and runtime', /Builtins_|Runtime_|v8::internal::/],
  ['libc, libuv, other', /./],
];
const kindOf = (fn) => KINDS.find(([, re]) => re.test(fn))[0];
const arch = process.arch === 'arm64' ? 'aarch64' : 'x86_64';
/**
 * Extra flags for the counted Node, from `COUNT_NODE_FLAGS` (e.g. `--single-threaded`: compile
 * jobs and garbage collection on the main thread, at the same points in every run, so the JIT
 * compilers' and the collector's shares stop moving by tens of thousands between runs).
 */
const nodeFlags = (process.env.COUNT_NODE_FLAGS ?? '').split(' ').filter(Boolean);

/**
 * Counts and prints a Markdown table: thousands of instructions per request of each variant, its
 * difference to `base` (`plain` by default), and that difference by kind of work; with `top`, the
 * functions that differ most. Two valgrind runs at a time (the machine has 2 cores). The runs are
 * `node inject-one.mjs <appScript> <variant> <count>`, or `node <script> <variant> <count>` for a
 * `script` that does `count` units of work itself. Resolves with each variant's total per unit and
 * its split by kind of work.
 */
export async function countInstructions({ appScript, script, variants, from, to, top = 0, base = 'plain', unit = 'request' }) {
  const names = variants.includes(base) ? variants : [base, ...variants];
  const target = script ? [script] : [injector, appScript];
  if (spawnSync('valgrind', ['--version']).status !== 0) throw new Error('valgrind not found: apt-get install -y valgrind');
  // Fixed addresses: V8's maps land in other stub-cache slots from one run to the next, and the
  // inline-cache misses (instructions) move with them.
  const fixedAddresses = spawnSync('setarch', [arch, '-R', 'true']).status === 0;
  const dir = mkdtempSync(join(tmpdir(), 'obs-instructions-'));
  const run = (variant, count) =>
    new Promise((resolve, reject) => {
      const out = join(dir, `${variant}.${count}.out`);
      const command = [
        ...(fixedAddresses ? ['setarch', arch, '-R'] : []),
        'valgrind',
        '--tool=cachegrind',
        '--cache-sim=no',
        `--cachegrind-out-file=${out}`,
        process.execPath,
        '--random-seed=1',
        ...nodeFlags,
        ...target,
        variant,
        String(count),
      ];
      const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (code) =>
        code === 0 ? resolve(byFunction(out)) : reject(new Error(`${variant} x ${count}: exit ${code}\n${err.slice(-2000)}`)),
      );
    });
  const jobs = names.flatMap((v) => [
    [v, from],
    [v, to],
  ]);
  const results = {};
  const worker = async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      const [v, n] = job;
      (results[v] ??= {})[n] = await run(v, n);
      console.error(`counted ${v} x ${n}`);
    }
  };
  try {
    await Promise.all([worker(), worker()]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const span = to - from;
  const perRequest = (v, fn) => ((results[v][to].get(fn) ?? 0) - (results[v][from].get(fn) ?? 0)) / span;
  const byKind = (v) => {
    const kinds = Object.fromEntries(KINDS.map(([k]) => [k, 0]));
    for (const fn of new Set([...results[v][from].keys(), ...results[v][to].keys()])) kinds[kindOf(fn)] += perRequest(v, fn);
    return kinds;
  };
  const table = Object.fromEntries(names.map((v) => [v, byKind(v)]));
  const total = (k) => Object.values(k).reduce((s, x) => s + x, 0);
  const K = (x) => (x / 1000).toFixed(1);
  console.log(
    `Node ${process.version}${nodeFlags.length > 0 ? ` ${nodeFlags.join(' ')}` : ''}${fixedAddresses ? '' : ' (no setarch: addresses randomised, counts vary more)'}; ` +
      `thousands of instructions per ${unit} (${unit}s ${from} -> ${to}); above ${base}, and that by kind of work`,
  );
  console.log(`| variant | total | above ${base} | ${KINDS.map(([k]) => k).join(' | ')} |`);
  console.log(`|---|---:|---:|${KINDS.map(() => '---:').join('|')}|`);
  for (const v of names) {
    const cells = v === base ? KINDS.map(() => '-') : KINDS.map(([k]) => K(table[v][k] - table[base][k]));
    const diff = total(table[v]) - total(table[base]);
    const above = v === base ? '-' : `${diff >= 0 ? '+' : ''}${K(diff)}`;
    console.log(`| ${v} | ${K(total(table[v]))} | ${above} | ${cells.join(' | ')} |`);
  }
  const totals = Object.fromEntries(names.map((v) => [v, total(table[v])]));
  if (!top) return { totals, byKind: table };
  for (const v of names.filter((n) => n !== base)) {
    console.log(`\n${v}: the ${top} functions most above ${base} (thousands of instructions per ${unit})`);
    const fns = new Set([...results[v][to].keys(), ...results[base][to].keys()]);
    const rows = [...fns].map((fn) => [fn, perRequest(v, fn) - perRequest(base, fn)]).sort((a, b) => b[1] - a[1]);
    for (const [fn, d] of rows.slice(0, top)) console.log(`${K(d).padStart(7)}  ${kindOf(fn).padEnd(34)} ${fn.slice(0, 110)}`);
  }
  return { totals, byKind: table };
}

/**
 * The entry points' command line: `[variants] [from] [to]` (defaults: the bench's own) and `TOP=n`
 * in the environment, for the bench app `appUrl`.
 */
export async function countFromCommandLine(appUrl, { variants, from: fromDefault, to: toDefault }) {
  const [names = variants, from = String(fromDefault), to = String(toDefault)] = process.argv.slice(2);
  await countInstructions({
    appScript: fileURLToPath(appUrl),
    variants: names.split(','),
    from: Number(from),
    to: Number(to),
    top: Number(process.env.TOP ?? 0),
  });
}

/** Instructions per function of one cachegrind output. */
function byFunction(file) {
  const text = spawnSync('cg_annotate', ['--auto=no', '--threshold=0.00001', file], { encoding: 'utf8', maxBuffer: 256 << 20 }).stdout;
  const counts = new Map();
  for (const line of text.split('\n')) {
    const m = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.+)$/.exec(line);
    if (!m || m[2].includes('PROGRAM TOTALS')) continue;
    counts.set(m[2], (counts.get(m[2]) ?? 0) + Number(m[1].replaceAll(',', '')));
  }
  return counts;
}
