// `npm test`: build everything, run every workspace's tests one after the other (they start
// real servers), then print one closing line summed over all of them.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, '.test-results');
rmSync(results, { recursive: true, force: true });

const turbo = (args) => spawnSync('turbo', args, { cwd: root, stdio: 'inherit', env: process.env }).status ?? 1;
// Style is enforced, not remembered: the formatter and linter (Biome, biome.jsonc) check the tree first.
const lint =
  spawnSync('biome', ['ci', '.', '--colors=off', '--error-on-warnings'], { cwd: root, stdio: 'inherit', env: process.env }).status ?? 1;
if (lint !== 0) console.error('\nbiome ci failed: run `npm run format` and fix the lint errors above');
let status = turbo(['run', 'build']);
if (status === 0) status = turbo(['run', 'test', '--concurrency=1', '--continue']);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(results)) {
  for (const file of readdirSync(results).filter((f) => f.endsWith('.json'))) {
    const r = JSON.parse(readFileSync(join(results, file), 'utf8'));
    passed += r.numPassedTests ?? 0;
    failed += r.numFailedTests ?? 0;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    console.log(`${file.replace(/\.json$/, '').padEnd(20)} ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
  }
}
if (lint !== 0) failed += 1; // the style check counts as one failed check
if (status !== 0 && failed === 0) failed = 1; // a build or runner failure counts, even with no test result
console.log(`\nTests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status === 0 && lint === 0 && failed === 0 ? 0 : 1);
