/**
 * What a cold start loads, pinned (issue 38): a process that imports the built `@obs/core`, calls
 * `initObs()` and records one observation loads exactly two of obs's files (the door and the
 * bundle), no other package's code but `@opentelemetry/api`'s, and neither `node:http`, `node:zlib`
 * nor Web Crypto; the AI SDK's integration (`@ai-sdk/otel`, which pulls in `ai` and zod: ~100 ms)
 * loads at the AI SDK's first read of obs's stand-in, and the Node.js built-ins at the first export,
 * whose span then arrives. Counted in a child process through a module load hook, with the real
 * `ai` 7 and `@ai-sdk/otel` of the repository resolvable from the script, as in an AI SDK app.
 * And the bundle keeps the name of every function and class it exports.
 */
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { node } from '../support/build-dist.js';
import { TRACING_KEYS } from '../tracing/harness.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const coreDir = resolve(here, '../..');
const repoRoot = resolve(coreDir, '../..');
// Inside the repository, so `@obs/core`, `ai` and `@ai-sdk/otel` resolve through node_modules.
const hooks = join(here, `.cold-start-hooks-${process.pid}.mjs`);
const script = join(here, `.cold-start-${process.pid}.mjs`);

/** Records every module file Node.js loads (ES modules, CommonJS, JSON) in `globalThis.__loaded`. */
const HOOKS = `
import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({ load(url, context, nextLoad) { loaded.add(url); return nextLoad(url, context); } });
globalThis.__loaded = loaded;
`;

const SCRIPT = `
import { fileURLToPath } from 'node:url';
import { initObs, startActiveObservation } from '@obs/core';

/** The files and Node.js built-in modules loaded so far. */
const snapshot = () => ({
  files: [...globalThis.__loaded].filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)),
  builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length)),
});
const handle = initObs({ flushOnExit: false });
const traceId = startActiveObservation('cold', (o) => {
  o.update({ input: 'one', output: 'two' });
  return o.traceId;
});
const atStart = snapshot();
const integrations = globalThis.AI_SDK_TELEMETRY_INTEGRATIONS ?? [];
const standIn = integrations.length;
// What the AI SDK does on every call it traces: read the registered integrations.
const onStart = typeof integrations[0]?.onStart;
const afterAiRead = snapshot();
await handle.flush();
const afterExport = snapshot();
process.stdout.write(JSON.stringify({ traceId, standIn, onStart, atStart, afterAiRead, afterExport }));
`;

interface Snapshot {
  files: string[];
  builtins: string[];
}
interface Result {
  traceId: string;
  standIn: number;
  onStart: string;
  atStart: Snapshot;
  afterAiRead: Snapshot;
  afterExport: Snapshot;
}

const local = setupObsServer({ ...TRACING_KEYS, reset: false });
let result: Result;

beforeAll(async () => {
  writeFileSync(hooks, HOOKS);
  writeFileSync(script, SCRIPT);
  const { stdout } = await run(node, ['--import', hooks, script], {
    cwd: coreDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...local.server.env },
    timeout: 30_000,
  });
  result = JSON.parse(stdout) as Result;
}, 60_000);

afterAll(() => {
  rmSync(hooks, { force: true });
  rmSync(script, { force: true });
});

/** Code files (not package.json reads), relative to the repository, without the test's own two. */
const code = (s: Snapshot) => s.files.filter((f) => !f.endsWith('.json') && f !== hooks && f !== script).map((f) => relative(repoRoot, f));
const obsFiles = (s: Snapshot) => code(s).filter((f) => f.startsWith('packages/core/'));
const inPackage = (s: Snapshot, name: string) => code(s).filter((f) => f.startsWith(`node_modules/${name}/`));

describe('a cold start: import @obs/core, initObs(), one observation', () => {
  it("loads two of obs's files: the door and the bundle", () => {
    expect(obsFiles(result.atStart)).toEqual(['packages/core/dist/index.js', 'packages/core/dist/chunks/obs.js']);
  });

  it("loads no other package's code than @opentelemetry/api's", () => {
    const others = code(result.atStart).filter((f) => !f.startsWith('packages/core/') && !f.startsWith('node_modules/@opentelemetry/api/'));
    expect(others).toEqual([]);
    expect(inPackage(result.atStart, '@opentelemetry/api').length).toBeGreaterThan(0);
  });

  it('loads neither node:http, node:https, node:zlib nor Web Crypto', () => {
    for (const m of ['http', 'https', 'zlib', 'internal/crypto/webcrypto']) expect(result.atStart.builtins).not.toContain(m);
  });
});

describe('what waits for its first use', () => {
  it("@ai-sdk/otel loads at the AI SDK's first read of the stand-in obs registered", () => {
    expect(result.standIn).toBe(1);
    expect(inPackage(result.atStart, '@ai-sdk/otel')).toEqual([]);
    expect(result.onStart).toBe('function');
    expect(inPackage(result.afterAiRead, '@ai-sdk/otel').length).toBeGreaterThan(0);
  });

  it('node:http and node:zlib load at the first export, and its one span arrives', () => {
    expect(result.afterExport.builtins).toEqual(expect.arrayContaining(['http', 'zlib']));
    const spans = local.server.spansByTrace(result.traceId);
    expect(spans.map((s) => s.name)).toEqual(['cold']);
  });
});

describe('the bundle', () => {
  it.each(['index.js', 'http/index.js', 'kit.js'])('dist/%s: every function and class it exports keeps its own name', async (door) => {
    // esbuild renames a binding that clashes with another module's; names are seen (stack traces,
    // an instrumentation naming a span after a middleware), so the bundle keeps them.
    const exports = (await import(pathToFileURL(join(coreDir, 'dist', door)).href)) as Record<string, unknown>;
    const functions = Object.entries(exports).filter((e): e is [string, () => unknown] => typeof e[1] === 'function');
    expect(functions.length).toBeGreaterThan(5);
    expect(functions.filter(([name, fn]) => fn.name !== name).map(([name, fn]) => `${name} is named ${fn.name}`)).toEqual([]);
  });
});
