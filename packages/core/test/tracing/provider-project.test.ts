/**
 * The test projects run on the provider they name (see vitest.config.ts): `light-provider` on
 * obs's own, `sdk-provider` on OpenTelemetry's `NodeTracerProvider`, both for the tracing harness
 * and for `initObs` (test/support/sdk-provider.ts makes it build the SDK's). Without this, a
 * project could silently test the other provider twice.
 */
import { trace, type TracerProvider } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { setupObsServer } from '@obs/local-server/testing';
import { afterEach, expect, it } from 'vitest';
import { initObs, type ObsHandle } from '../../src/index.js';
import { LightTracerProvider } from '../../src/tracing/provider/light-provider.js';
import { installTracing, TRACING_KEYS } from './harness.js';

const local = setupObsServer({ ...TRACING_KEYS, reset: false });
const expected = process.env.OBS_TEST_PROVIDER === 'sdk' ? NodeTracerProvider : LightTracerProvider;
let handle: ObsHandle | undefined;

afterEach(async () => {
  await handle?.shutdown();
  handle = undefined;
  trace.disable();
});

/** The provider obs registered: its own, behind the provider that gives way to an app's. */
const registered = () => (trace.getTracerProvider() as TracerProvider & { getDelegate(): { own: TracerProvider } }).getDelegate().own;

it(`the tracing harness registers ${expected.name}`, async () => {
  const tracing = installTracing(local.server);
  expect(tracing.provider).toBeInstanceOf(expected);
  await tracing.close();
});

it(`initObs builds ${expected.name}`, () => {
  const { url: baseUrl, publicKey, secretKey } = local.server;
  handle = initObs({ baseUrl, publicKey, secretKey, flushOnExit: false });
  expect(handle.mode).toBe('registered');
  expect(registered()).toBeInstanceOf(expected);
});
