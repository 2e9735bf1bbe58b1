import { initObs, startActiveObservation } from '@obs/core';
import { setupObsServer } from '@obs/local-server/testing';
import { expect, it } from 'vitest';
import { onRequestError } from '../src/on-request-error.js';
import { firstSpan, nextErrorAttributes } from './harness.js';

const local = setupObsServer({
  init: (c) => initObs({ ...c, flushInterval: 3600, flushOnExit: false }),
});

it('records an error raised inside a live observation on that observation, with the Next context as metadata', async () => {
  const error = Object.assign(new Error('tool failed'), { digest: '123' });
  await startActiveObservation('answer', async () => {
    await onRequestError(
      error,
      { path: '/api/x?q=1', method: 'POST', headers: {} },
      { routerKind: 'App Router', routePath: '/api/x/route', routeType: 'route' },
    );
  });
  await local.handle.flush();
  const span = await firstSpan(local.server, 'answer', 5_000);
  // No second, separate error observation: the error went on the active one.
  expect(local.server.spans().map((s) => s.name)).toEqual(['answer']);
  expect(span.attributes).toMatchObject(
    nextErrorAttributes('tool failed', { routerKind: 'App Router', routePath: '/api/x/route', routeType: 'route', digest: '123' }),
  );
  expect(span.attributes['obs.observation.metadata.next.renderSource']).toBeUndefined();
});
