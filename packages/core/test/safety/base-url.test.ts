/**
 * A base URL obs cannot use is refused at start, in one line, for every kind of request alike
 * (spans, scores, the API): one holding a user name and password (`http://user:PASS@host`, which
 * obs could not send next to its own Basic auth, and `fetch` refuses outright), one that is not
 * http(s) or not a URL. The password is in no log line (debug included), no error and no
 * `util.inspect` output. Fresh modules per test: the start-up warning is once per process.
 */
import { inspect } from 'node:util';
import { setupObsServer } from '@obs/local-server/testing';
import { trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ObsHandle } from '../../src/index.js';
import { TRACING_KEYS } from '../support/server.js';

const { server } = await setupObsServer({ ...TRACING_KEYS, reset: false }).ready;
const PASSWORD = 'Pr0xy-PASS-never-printed';
let handle: ObsHandle | undefined;

afterEach(async () => {
  await handle?.shutdown({ timeoutMs: 500 });
  handle = undefined;
  trace.disable();
  server.reset();
  delete process.env.OBS_BASE_URL;
});

/**
 * A fresh copy of `@obs/core` whose warnings and errors (what the default level shows) land in
 * `lines`, and every line, debug included, in `all` when given.
 */
async function freshObs(lines: string[], all: string[] = []): Promise<typeof import('../../src/index.js')> {
  vi.resetModules();
  const fresh = (await import('../../src/index.js')) as typeof import('../../src/index.js');
  const shown = (m: string) => {
    lines.push(m);
    all.push(m);
  };
  const quiet = (m: string) => void all.push(m);
  fresh.setLogger({ debug: quiet, info: quiet, warn: shown, error: shown }, 'debug');
  return fresh;
}

describe('a base URL with credentials', () => {
  it('is refused at start in one line: no span, score or API call is sent, and the password shows nowhere', async () => {
    const lines: string[] = [];
    const all: string[] = [];
    const obs = await freshObs(lines, all);
    const baseUrl = server.url.replace('://', `://proxy-user:${PASSWORD}@`);
    handle = obs.initObs({ baseUrl, publicKey: server.publicKey, secretKey: server.secretKey, flushOnExit: false, debug: true });
    for (let i = 0; i < 5; i++) obs.startObservation(`creds-${i}`).end();
    for (let i = 0; i < 5; i++) handle.client.score.create({ traceId: 'a'.repeat(32), name: 'creds', value: i });
    await handle.flush();
    const apiError = await handle.client.api.projects.get().then(
      () => undefined,
      (err: unknown) => err as Error & { cause?: unknown },
    );
    expect(server.requests).toHaveLength(0);
    expect(lines).toEqual([expect.stringMatching(/holds a user name or password/)]);
    expect(lines[0]).toContain('"http://***@127.0.0.1:');
    expect(apiError).toBeInstanceOf(Error);
    for (const text of [...all, apiError!.message, apiError!.stack ?? '', String(apiError!.cause ?? ''), inspect(handle, { depth: 8 })]) {
      expect(text).not.toContain(PASSWORD);
    }
  });

  it('from OBS_BASE_URL too, for a client alone', async () => {
    const lines: string[] = [];
    const obs = await freshObs(lines);
    process.env.OBS_BASE_URL = server.url.replace('://', `://user:${PASSWORD}@`);
    const client = new obs.ObsClient({ publicKey: server.publicKey, secretKey: server.secretKey });
    client.score.create({ traceId: 'a'.repeat(32), name: 'creds', value: 1 });
    await client.flush();
    await expect(client.api.projects.get()).rejects.toThrow(/not configured/);
    expect(server.requests).toHaveLength(0);
    expect(lines).toEqual([expect.stringMatching(/ObsClient: .*holds a user name or password/)]);
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });
});

describe('a base URL that is not an http(s) URL', () => {
  it.each([
    ['no scheme', 'localhost:3000', /is not an http or https URL/],
    ['another scheme', 'ftp://obs.example', /is not an http or https URL/],
    ['not a URL', 'obs server', /is not a URL/],
  ])('(%s) is refused at start in one line naming it; nothing is sent, nothing thrown', async (_label, baseUrl, problem) => {
    const lines: string[] = [];
    const obs = await freshObs(lines);
    handle = obs.initObs({ baseUrl, publicKey: server.publicKey, secretKey: server.secretKey, flushOnExit: false });
    expect(handle.spanProcessor.enabled).toBe(false);
    obs.startObservation('nowhere').end();
    handle.client.score.create({ traceId: 'a'.repeat(32), name: 'nowhere', value: 1 });
    await handle.flush();
    expect(lines).toEqual([expect.stringMatching(problem)]);
    expect(lines[0]).toContain(baseUrl);
  });
});
