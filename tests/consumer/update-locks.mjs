// Writes the consumer test's fresh apps' package.json and package-lock.json: `node tests/consumer/update-locks.mjs`.
// The SDK 2 line app (express-cjs, esm-ts, nest-cjs) takes the versions the repository's own lockfile
// pins; the SDK 3 line app (otel-sdk3) the current OpenTelemetry SDK 3 line. The obs packages are not
// in either: the test adds the packed tarballs to a copy and installs, so the lockfiles pin everything
// else. Run it after changing a version below or in the repository's lockfile.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoLock = JSON.parse(readFileSync(join(here, '..', '..', 'package-lock.json'), 'utf8')).packages;

/** The version the repository's lockfile pins for `name` (hoisted, else under tests/, else under a package). */
function pinned(name) {
  const nested = Object.entries(repoLock).find(([path]) => path.startsWith('packages/') && path.endsWith(`/node_modules/${name}`))?.[1];
  const version = repoLock[`node_modules/${name}`]?.version ?? repoLock[`tests/node_modules/${name}`]?.version ?? nested?.version;
  if (!version) throw new Error(`${name} is not in the repository's lockfile`);
  return version;
}

const apps = {
  '.': {
    name: 'obs-consumer',
    dependencies: Object.fromEntries(
      [
        'express',
        'fastify',
        'hono',
        '@hono/node-server',
        'koa',
        '@koa/router',
        '@koa/bodyparser',
        '@types/koa',
        '@types/aws-lambda',
        '@types/express',
        '@types/node',
        '@langchain/core',
        'openai',
        '@modelcontextprotocol/sdk',
        '@modelcontextprotocol/server',
        'zod',
        '@anthropic-ai/sdk',
        '@openai/agents',
        '@anthropic-ai/claude-agent-sdk',
        '@mastra/core',
        '@mastra/observability',
        '@google/genai',
        '@aws-sdk/client-bedrock-runtime',
        '@opentelemetry/api',
        '@opentelemetry/sdk-node',
        '@opentelemetry/sdk-trace-node',
        '@nestjs/common',
        '@nestjs/core',
        '@nestjs/platform-express',
        '@nestjs/platform-fastify',
        'reflect-metadata',
        'rxjs',
        'next',
        'react',
        'react-dom',
        // The meta-framework adapters' peers, for their README examples' types.
        'react-router',
        '@sveltejs/kit',
        'h3',
      ].map((name) => [name, pinned(name)]),
    ),
  },
  'otel-sdk3': {
    name: 'obs-consumer-otel-sdk3',
    dependencies: {
      '@opentelemetry/api': '1.10.0',
      '@opentelemetry/instrumentation-express': '0.72.0',
      '@opentelemetry/instrumentation-http': '0.300.0',
      '@opentelemetry/sdk-node': '0.300.0',
      '@opentelemetry/sdk-trace': '3.0.0',
      '@types/node': pinned('@types/node'),
      express: pinned('express'),
    },
  },
};

for (const [dir, { name, dependencies }] of Object.entries(apps)) {
  const pkg = { name, private: true, dependencies };
  writeFileSync(join(here, dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const tmp = mkdtempSync(join(tmpdir(), 'obs-consumer-lock-'));
  try {
    cpSync(join(here, dir, 'package.json'), join(tmp, 'package.json'));
    execFileSync('npm', ['install', '--package-lock-only', '--prefer-dedupe', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: tmp,
      stdio: 'inherit',
    });
    cpSync(join(tmp, 'package-lock.json'), join(here, dir, 'package-lock.json'));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`${join('tests/consumer', dir)}: package.json and package-lock.json written`);
}
