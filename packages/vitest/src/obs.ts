/**
 * obs for a test file: the handle an app or a setup file already made, else one made from the
 * `OBS_*` environment (a test file need not call `initObs`), else none: the eval then runs and
 * checks its thresholds locally and sends nothing.
 */
import { getObsHandle, initObs, type ObsClient } from '@obs/core';
import { resolveConnection } from '@obs/core/kit';

/** The obs client evals report to, or `undefined` when obs is not configured. */
export function evalObsClient(): ObsClient | undefined {
  const existing = getObsHandle();
  if (existing) return existing.client;
  if (!resolveConnection().ok) return undefined;
  // The suites flush their runs themselves; exit and signal hooks are the test runner's.
  return initObs({ flushOnExit: false }).client;
}

/** Why nothing reaches obs, for the summary line; `undefined` when it is configured. */
export function notConfiguredReason(): string | undefined {
  const handle = getObsHandle();
  // A handle made without a connection (an instrumentation's own initObs) exports nothing either.
  if (handle?.spanProcessor.enabled) return undefined;
  const connection = resolveConnection();
  return connection.ok && !handle ? undefined : `obs is not configured (${connection.problem ?? 'no connection'}): nothing was sent`;
}
