import { startObsServer } from '@obs/local-server';
import type { TestProject } from 'vitest/node';
import { nextEnv, run } from './harness.js';

declare module 'vitest' {
  export interface ProvidedContext {
    nextBuild: { ms: number; requestsDuringBuild: number; log: string };
  }
}

/**
 * One real `next build` of examples/next for the whole suite. An obs server is running and configured
 * during the build, so the suite can check the build never talks to it (no export at build time).
 */
export default async function setup(project: TestProject): Promise<void> {
  const server = await startObsServer({ quiet: true });
  try {
    const start = performance.now();
    const log = await run(['build'], nextEnv(server.env));
    const ms = Math.round(performance.now() - start);
    // Anything an instrumentation bug would have sent late still has a moment to arrive.
    await new Promise((r) => setTimeout(r, 200));
    project.provide('nextBuild', { ms, requestsDuringBuild: server.requests.length, log });
    console.log(`[next] examples/next built in ${(ms / 1000).toFixed(1)} s`);
  } finally {
    await server.close();
  }
}
