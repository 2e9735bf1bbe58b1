/** `@obs/hono` on real Bun (the `bun` npm package's binary), serving with `Bun.serve`. */
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { type RuntimeApp, runtimeBinary, startRuntimeApp } from './runtime-process.js';
import { runtimeScenarios } from './runtime-scenarios.js';

const local = setupObsServer();
const bun = runtimeBinary('bun');
if (bun.unavailable) console.warn(`skipping the Bun tests: ${bun.unavailable}`);

describe.skipIf(!bun.path)('Hono on Bun', () => {
  let app: RuntimeApp;
  beforeAll(async () => {
    app = await startRuntimeApp(bun.path!, ['run', 'test/fixtures/serve-bun.ts'], local.server);
  });
  afterAll(async () => app?.stop());
  runtimeScenarios(
    () => local.server,
    () => app.url,
  );
});
