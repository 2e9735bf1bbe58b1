/**
 * `@obs/hono` on real Deno (the `deno` npm package's binary), serving with `Deno.serve`: the same
 * scenarios as every runtime, and nothing on Deno's console but obs's start-up line (Deno 2.9
 * warns about `request.signal`'s legacy abort once a request is cloned: obs reads the body the
 * handler read instead of a copy there).
 */
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it("Deno's console after every scenario: the listening line and obs's start-up line, no warning", () => {
    const lines = app
      .output()
      .split('\n')
      .filter((l) => l.trim() !== '');
    expect(lines.filter((l) => !l.startsWith('LISTENING '))).toEqual([
      expect.stringMatching(/^\[obs\] on: exporting to http:\/\/127\.0\.0\.1:\d+ \(obs registered its own tracer provider/),
    ]);
  });
});
