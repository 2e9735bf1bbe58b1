import { initObs, startActiveObservation, type ObsHandle } from '@obs/core';
import { startObsServer, type ObsServer } from '@obs/local-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { onRequestError } from '../src/on-request-error.js';

let server: ObsServer;
let obs: ObsHandle;

beforeAll(async () => {
  server = await startObsServer({ quiet: true });
  obs = initObs({ baseUrl: server.url, publicKey: server.publicKey, secretKey: server.secretKey, flushInterval: 3600, flushOnExit: false });
});

afterAll(async () => {
  await obs?.shutdown();
  await server?.close();
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
  await obs.flush();
  await server.waitFor(() => server.spansByName('answer').length > 0, { timeoutMs: 5_000 });
  // No second, separate error observation: the error went on the active one.
  expect(server.spans().map((s) => s.name)).toEqual(['answer']);
  const [span] = server.spansByName('answer');
  expect(span!.attributes).toMatchObject({
    'obs.observation.level': 'ERROR',
    'obs.observation.status_message': 'tool failed',
    'obs.observation.metadata.next.routerKind': 'App Router',
    'obs.observation.metadata.next.routePath': '/api/x/route',
    'obs.observation.metadata.next.routeType': 'route',
    'obs.observation.metadata.next.digest': '123',
  });
  expect(span!.attributes['obs.observation.metadata.next.renderSource']).toBeUndefined();
});
