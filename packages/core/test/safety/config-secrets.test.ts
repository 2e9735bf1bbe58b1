/**
 * Bad configuration never freezes the app (numeric options validated once, keys and URLs
 * trimmed), secrets are not inspectable, and default redaction matches key substrings.
 */
import { inspect } from 'node:util';
import { setupObsServer } from '@obs/local-server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { initObs, ObsClient, type ObsHandle, redactSecrets, startObservation } from '../../src/index.js';
import { captureLogs, restoreLogger, TRACING_KEYS } from '../support/server.js';
import { installTracing, type Tracing } from '../tracing/harness.js';

const { server } = await setupObsServer({ ...TRACING_KEYS, reset: false }).ready;
let tracing: Tracing | undefined;
let handle: ObsHandle | undefined;

afterEach(async () => {
  await tracing?.close();
  await handle?.shutdown();
  tracing = handle = undefined;
  server.reset();
  restoreLogger();
  for (const k of ['OBS_PUBLIC_KEY', 'OBS_SECRET_KEY', 'OBS_BASE_URL', 'OBS_FLUSH_AT']) delete process.env[k];
});

describe('numeric options', () => {
  it.each([
    ['NaN', Number.NaN],
    ['a string', 'x'],
    ['a negative', -5],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('flushAt as %s: one warning, the default (512) is used, spans still leave', async (_label, bad) => {
    const logs = captureLogs();
    tracing = installTracing(server, { flushAt: bad as number, flushInterval: 0.05 });
    for (let i = 0; i < 3; i++) startObservation(`bad-config-${i}`).end();
    await server.waitForSpans(3, { timeoutMs: 3000 });
    expect(logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      expect.stringMatching(/option flushAt must be a positive number, got .*; using 512/),
    ]);
  });

  it('every numeric option is checked: NaN timeout, flushInterval, maxQueueSize, shutdownTimeout each warn once', () => {
    const logs = captureLogs();
    tracing = installTracing(server, {
      timeout: Number.NaN,
      flushInterval: Number('unset'),
      maxQueueSize: 'lots' as never,
      shutdownTimeout: -1,
      retryBudget: Number.NaN,
    });
    const warned = logs.filter((l) => l.level === 'warn').map((l) => l.message.match(/option (\w+)/)?.[1]);
    expect(warned.sort()).toEqual(['flushInterval', 'maxQueueSize', 'retryBudget', 'shutdownTimeout', 'timeout']);
  });

  it('a flushInterval past the timer limit is clamped instead of firing at once', async () => {
    tracing = installTracing(server, { flushInterval: 1e12, flushAt: 100 });
    startObservation('clamped').end();
    await new Promise((r) => setTimeout(r, 200));
    expect(server.spans()).toHaveLength(0);
    await tracing.flush();
    expect(server.spans().map((s) => s.name)).toEqual(['clamped']);
  });

  it('OBS_FLUSH_AT=garbage warns once and uses the default', () => {
    process.env.OBS_FLUSH_AT = 'garbage';
    const logs = captureLogs();
    tracing = installTracing(server, { flushAt: undefined });
    expect(logs.map((l) => l.message)).toEqual([
      expect.stringMatching(/option flushAt must be a positive number, got "garbage"; using 512/),
    ]);
  });
});

describe('keys and URLs from the environment', () => {
  it('are trimmed: a trailing newline in OBS_PUBLIC_KEY/OBS_SECRET_KEY/OBS_BASE_URL still exports', async () => {
    process.env.OBS_PUBLIC_KEY = `${server.publicKey}\n`;
    process.env.OBS_SECRET_KEY = ` ${server.secretKey}\r\n`;
    process.env.OBS_BASE_URL = `${server.url}/\n`;
    const logs = captureLogs();
    tracing = installTracing(server, { publicKey: undefined, secretKey: undefined, baseUrl: undefined });
    startObservation('trimmed').end();
    await tracing.flush();
    expect(server.spans().map((s) => s.name)).toEqual(['trimmed']);
    expect(logs.filter((l) => l.level !== 'debug')).toEqual([]);
  });
});

describe('secrets', () => {
  const secretKey = 'sk-lf-very-secret-value-1234';

  it('util.inspect of the initObs handle, the client and its API shows neither the secret nor the Basic header', () => {
    handle = initObs({ publicKey: 'pk-lf-1', secretKey, baseUrl: server.url, flushOnExit: false });
    const basic = Buffer.from(`pk-lf-1:${secretKey}`).toString('base64');
    for (const value of [handle, handle.client, handle.client.api, handle.spanProcessor]) {
      const text = inspect(value, { depth: Infinity });
      expect(text).not.toContain('very-secret');
      expect(text).not.toContain(basic);
    }
    expect(inspect(handle.spanProcessor, { depth: 5 })).toContain("secretKey: 'sk-...1234'");
    expect(JSON.stringify(Object.entries(new ObsClient({ publicKey: 'pk', secretKey, baseUrl: server.url }).api))).not.toContain(basic);
  });
});

describe('default redaction', () => {
  it('matches key substrings case-insensitively at any depth; sessionId is an identifier and stays', () => {
    const input = {
      access_token: 'a',
      refresh_token: 'b',
      client_secret: 'c',
      headers: { 'x-api-key': 'd', Authorization: 'Bearer e', Cookie: 'f' },
      deep: [{ user: { newPassword: 'g', pwd: 'h', openai_api_key: 'i', privateKey: 'j', private_key: 'k', awsCredentials: 'l' } }],
      session_token: 'm',
      sessionId: 'session-123',
      session_id: 'session-456',
      model: 'gpt',
      max_tokens: 100,
      usage: { total_tokens: 7, promptTokens: 3 },
      author: 'ada',
    };
    const out = JSON.stringify(redactSecrets(input));
    for (const secret of ['"a"', '"b"', '"c"', '"d"', 'Bearer e', '"f"', '"g"', '"h"', '"i"', '"j"', '"k"', '"l"', '"m"']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('"sessionId":"session-123"');
    expect(out).toContain('"session_id":"session-456"');
    expect(out).toContain('"model":"gpt"');
    // Token counts and authors hold no secret.
    expect(out).toContain('"max_tokens":100');
    expect(out).toContain('"usage":{"total_tokens":7,"promptTokens":3}');
    expect(out).toContain('"author":"ada"');
    // The original is untouched.
    expect(input.access_token).toBe('a');
  });
});
