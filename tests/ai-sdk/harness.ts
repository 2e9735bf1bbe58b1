/**
 * What the AI SDK suites share around the variants: the spans one call traced below its root
 * observation, read back from the local obs server, and AI SDK 7's global registry of telemetry
 * integrations, with an integration registered for a while as an app's start-up registers it.
 */
import { startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { type ObsServerFixture, traced } from '@obs/local-server/testing';
import { registerTelemetry, type Telemetry } from 'ai';

/** Runs `fn` under a root observation `request`; returns the spans of its trace below the root, in start order. */
export async function spansBelowRoot(
  local: ObsServerFixture<{ flush(): Promise<unknown> }>,
  fn: () => Promise<unknown>,
): Promise<DecodedSpan[]> {
  const run = await traced(local, startActiveObservation, fn, 'request');
  if (run.error) throw run.error;
  return run.children;
}

/** Where AI SDK 7's `registerTelemetry` keeps the integrations (obs registers its stand-in there too). */
export const registry = globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown[] };

/** Runs `fn` with `integration` registered globally, as an app's start-up does; unregisters it after. */
export async function withRegistered<T>(integration: Telemetry, fn: () => Promise<T>): Promise<T> {
  registerTelemetry(integration);
  try {
    return await fn();
  } finally {
    registry.AI_SDK_TELEMETRY_INTEGRATIONS!.splice(registry.AI_SDK_TELEMETRY_INTEGRATIONS!.indexOf(integration), 1);
  }
}
