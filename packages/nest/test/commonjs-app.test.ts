import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, sleep } from './support/harness.js';

// A Nest app compiled by tsc with the Nest CLI's CommonJS tsconfig, run by Node 22 as a child
// process: it loads this ESM package (and ESM Nest 12) through require(esm).
const here = dirname(fileURLToPath(import.meta.url));
const fixture = join(here, 'fixtures', 'cjs-app');
const tsc = join(here, '..', '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');

const obs = setupObsServer();
let workDir: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  // Inside the repo, so the app resolves @obs/nest and @nestjs/* from the workspace.
  workDir = await mkdtemp(join(here, '.tmp-cjs-'));
  await writeFile(join(workDir, 'package.json'), JSON.stringify({ type: 'commonjs' }));
  await writeFile(
    join(workDir, 'tsconfig.json'),
    JSON.stringify({
      extends: join(fixture, 'tsconfig.json'),
      compilerOptions: { rootDir: fixture, outDir: join(workDir, 'dist') },
      include: [join(fixture, '*.ts')],
    }),
  );
  const compile = spawn(process.execPath, [tsc, '-p', join(workDir, 'tsconfig.json')], { stdio: 'pipe' });
  let output = '';
  compile.stdout!.on('data', (c) => (output += c));
  compile.stderr!.on('data', (c) => (output += c));
  const [code] = await once(compile, 'exit');
  if (code !== 0) throw new Error(`tsc failed:\n${output}`);
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(workDir, { recursive: true, force: true });
});

describe('a CommonJS Nest app (Nest CLI tsconfig)', () => {
  it('compiles to CommonJS that loads @obs/nest, traces requests, and flushes on SIGTERM with enableShutdownHooks', async () => {
    const main = join(workDir, 'dist', 'main.js');
    expect(await readFile(main, 'utf8')).toContain('require("./app.module")');
    child = spawn(process.execPath, [main], {
      cwd: workDir,
      env: { ...process.env, ...obs.server.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c) => (stderr += c));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (c) => {
        out += c;
        const m = /listening on (\S+) as commonjs/.exec(out);
        if (m) resolve(m[1]!.replace('[::1]', '127.0.0.1'));
      });
      child!.once('exit', (code) => reject(new Error(`app exited (${code}) before listening:\n${out}\n${stderr}`)));
    });

    expect(await getJson(`${url}/cjs/items/7`, { 'x-user': 'u-cjs' })).toEqual({ id: '7', summary: 'item 7' });
    expect(await getJson(`${url}/cjs/items/missing`)).toMatchObject({ statusCode: 404, message: 'no such item' });
    const slow = getJson(`${url}/cjs/slow`);
    await sleep(80);
    child.kill('SIGTERM');
    // Accepted before the signal: answered, and its spans are not lost.
    expect(await slow).toEqual({ slow: true });
    const [code, signal] = await once(child, 'exit');
    // Nothing on stderr but obs's one start-up line.
    expect({ code, signal, stderr: stderr.replace(/^\[obs\] on: exporting to http:\/\/127\.0\.0\.1:\d+ .*\n/, '') }).toMatchObject({
      signal: 'SIGTERM',
      stderr: '',
    });

    const item = obs.server.spansByName('GET /cjs/items/:id');
    expect(item.map((s) => s.attributes['http.response.status_code']).sort()).toEqual([200, 404]);
    expect(item.every((s) => s.attributes['obs.observation.level'] === undefined)).toBe(true);
    const ok = item.find((s) => s.attributes['http.response.status_code'] === 200)!;
    const trace = obs.server.spansByTrace(ok.traceId);
    expect(trace.map((s) => s.name).sort()).toEqual(['GET /cjs/items/:id', 'ItemsService.find', 'summarise']);
    for (const span of trace) expect(span.attributes['user.id'], span.name).toBe('u-cjs');
    expect(obs.server.spansByName('GET /cjs/slow')).toHaveLength(1);
    expect(obs.server.spansByName('ItemsService.slow')).toHaveLength(1);
  });
});
