/** `@obs/hono` on real Deno (the `deno` npm package's binary), serving with `Deno.serve`. */
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { type RuntimeApp, runtimeBinary, startRuntimeApp } from './runtime-process.js';
import { runtimeScenarios } from './runtime-scenarios.js';

const local = setupObsServer();
const deno = runtimeBinary('deno');
if (deno.unavailable) console.warn(`skipping the Deno tests: ${deno.unavailable}`);

describe.skipIf(!deno.path)('Hono on Deno', () => {
  let app: RuntimeApp;
  beforeAll(async () => {
    app = await startRuntimeApp(
      deno.path!,
      ['run', '--allow-env', '--allow-net', '--no-prompt', 'test/fixtures/serve-deno.ts'],
      local.server,
    );
  });
  afterAll(async () => app?.stop());
  runtimeScenarios(
    () => local.server,
    () => app.url,
  );
});
