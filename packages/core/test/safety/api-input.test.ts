/**
 * The API client cannot be steered to another resource: invalid path parameters and object
 * query values reject with a TypeError before any request; a 2xx body that is not JSON rejects
 * with an ObsApiError.
 */

import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { ObsApiError, ObsClient } from '../../src/index.js';
import { CLIENT_KEYS, captureLogs, restoreLogger } from '../support/server.js';

const { server } = await setupObsServer({ ...CLIENT_KEYS, reset: false }).ready;
const client = new ObsClient({ ...CLIENT_KEYS, baseUrl: server.url, maxRetries: 0 });

describe('path parameters', () => {
  const bad: Array<[string, unknown]> = [
    ['empty', ''],
    ['blank', '  '],
    ['.', '.'],
    ['..', '..'],
    ['undefined', undefined],
    ['null', null],
    ['an object', { id: 'x' }],
    ['NaN', Number.NaN],
  ];
  it.each(bad)(
    '%s: trace.delete and projects.deleteApiKey reject with a TypeError naming the method; nothing is sent',
    async (_label, value) => {
      const before = server.requests.length;
      await expect(client.api.trace.delete(value as string)).rejects.toThrow(TypeError);
      await expect(client.api.trace.delete(value as string)).rejects.toThrow(
        /^trace\.delete: path parameter "traceId" is invalid: .*; nothing was sent$/,
      );
      await expect(client.api.projects.deleteApiKey('p1', value as string)).rejects.toThrow(
        /^projects\.deleteApiKey: path parameter "apiKeyId" is invalid: /,
      );
      expect(server.requests.length).toBe(before);
    },
  );

  it('valid values still reach their own resource, `/` encoded', async () => {
    const before = server.requests.length;
    await client.api.trace.delete('a/../b').catch(() => undefined);
    expect(server.requests.slice(before).map((r) => r.path)).toEqual(['/api/public/traces/a%2F..%2Fb']);
  });
});

describe('query parameters', () => {
  it('an object value rejects with a TypeError before any request', async () => {
    const before = server.requests.length;
    await expect(client.api.observations.getMany({ traceId: { $ne: 'x' } } as never)).rejects.toThrow(
      /^observations\.getMany: query parameter "traceId" must be a string, number, boolean, Date or an array of them/,
    );
    expect(server.requests.length).toBe(before);
  });
});

describe('2xx bodies that are not JSON', () => {
  it.each([
    ['an HTML page of a proxy', '<html><body>Gateway</body></html>'],
    ['truncated JSON', '{"data":[{"id":"p1"'],
  ])('%s rejects with an ObsApiError that says so', async (_label, body) => {
    server.injectFault({ path: '/api/public/projects', status: 200, body });
    const err = await client.api.projects.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObsApiError);
    expect((err as ObsApiError).message).toMatch(/^projects\.get got HTTP 200 with a body that is not JSON: /);
    expect((err as ObsApiError).statusCode).toBe(200);
  });
});

describe('client numeric options', () => {
  it('timeout: NaN warns once and uses 5 s', () => {
    const logs = captureLogs();
    try {
      new ObsClient({ ...CLIENT_KEYS, baseUrl: server.url, timeout: Number.NaN });
      expect(logs.map((l) => l.message)).toEqual([expect.stringMatching(/option timeout must be a positive number, got NaN; using 5/)]);
    } finally {
      restoreLogger();
    }
  });
});
