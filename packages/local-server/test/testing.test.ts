/**
 * `setupObsServer` (`@obs/local-server/testing`), the one fixture every package's tests use: it
 * starts the server, initialises obs through `init` once, resets between tests and shuts both down.
 */
import { describe, expect, it } from 'vitest';
import { setupObsServer } from '../src/testing.js';

const calls: string[] = [];
let closedUrl = '';

describe('a suite using the fixture', () => {
  const obs = setupObsServer({
    publicKey: 'pk-fixture',
    secretKey: 'sk-fixture',
    init: (connection, server) => {
      calls.push(`init ${connection.publicKey} ${connection.baseUrl === server.url}`);
      return { flush: async () => void calls.push('flush'), shutdown: async () => void calls.push('shutdown') };
    },
    beforeEach: () => calls.push('beforeEach'),
  });

  it('starts the server with the given keys and initialises obs once against it', async () => {
    expect(obs.connection).toEqual({ baseUrl: obs.server.url, publicKey: 'pk-fixture', secretKey: 'sk-fixture' });
    expect(obs.server.env).toEqual({ OBS_BASE_URL: obs.server.url, OBS_PUBLIC_KEY: 'pk-fixture', OBS_SECRET_KEY: 'sk-fixture' });
    const res = await fetch(`${obs.server.url}/api/public/health`);
    expect(res.status).toBe(200);
    expect(obs.server.requests).toHaveLength(1);
    closedUrl = obs.server.url;
  });

  it('resets the server before each test and runs beforeEach', () => {
    expect(obs.server.requests).toHaveLength(0);
    expect(calls).toEqual(['init pk-fixture true', 'beforeEach', 'beforeEach']);
  });

  it('`ready` is the same started fixture', async () => {
    expect((await obs.ready).server).toBe(obs.server);
  });
});

describe('after the suite', () => {
  it('shut the handle down (not just flushed it) and closed the server', async () => {
    expect(calls.filter((c) => c === 'shutdown' || c === 'flush')).toEqual(['shutdown']);
    await expect(fetch(`${closedUrl}/api/public/health`)).rejects.toThrow();
  });

  it('reading the fixture before it started says so', () => {
    const early = setupObsServer();
    expect(() => early.server).toThrow(/before the fixture started/);
  });
});
