/**
 * The model SDK wrapper kit's contract, on a small client shaped like the SDKs it wraps (a class
 * with `#private` state, resources holding a `_client` back-reference, helpers built on the
 * traced method, a custom `fetch` it holds), read back from the local obs server: what the
 * `Proxy` routes where, that the caller's client stays untraced, and that a mapping bug (request
 * reader, response reader, follower) is one log line and an unchanged call. The real SDKs run
 * on the wire in `@obs/openai` and `@obs/anthropic`.
 */
import { initObs, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { bodyMethod, type ClientSpec, followPromise, type ModelEndpoint, observeClient, watchIterator } from '../../src/kit.js';
import { captureLogs, restoreLogger } from '../support/server.js';

const local = setupObsServer({ init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });

class Completions {
  constructor(protected _client: FakeClient) {}
  create(body: { prompt: string; stream?: boolean }): Promise<unknown> {
    this._client.sent.push(body.prompt);
    if (body.stream) return Promise.resolve(words(`echo ${body.prompt}`));
    return Promise.resolve({ text: `echo ${body.prompt}`, tokens: 3 });
  }
  /** A helper on the traced method, through `this`. */
  ask(prompt: string) {
    return this.create({ prompt });
  }
  /** A helper on the traced method, through the client. */
  viaClient(prompt: string) {
    return this._client.completions.create({ prompt });
  }
}

class FakeClient {
  #secret = 'private-state';
  readonly sent: string[] = [];
  readonly completions = new Completions(this);
  readonly frozen = {};
  constructor(readonly fetch: () => string = () => 'fetched') {
    Object.defineProperty(this, 'frozen', { value: Object.freeze({ completions: {} }), writable: false, configurable: false });
  }
  get secret() {
    return this.#secret;
  }
  reveal() {
    return this.#secret;
  }
  withPrefix() {
    return new FakeClient();
  }
}

async function* words(text: string) {
  for (const w of text.split(' ')) yield w;
}

const ENDPOINT: ModelEndpoint<{ prompt: string }> = {
  name: 'fake.completions.create',
  type: 'generation',
  request: (body) => ({ model: 'fake-model', input: body.prompt }),
  response: (value) => ({ output: (value as { text: string }).text, usageDetails: { output: (value as { tokens: number }).tokens } }),
  stream: () => {
    const seen: string[] = [];
    return {
      read: (chunk) => seen.push(String(chunk)) > 0,
      result: () => ({ output: seen.join(' '), finished: seen.length >= 2 }),
    };
  },
};

const spec = (endpoint: ModelEndpoint<never> = ENDPOINT as ModelEndpoint<never>, follow = followPromise): ClientSpec => ({
  adapter: '@obs/fake',
  methods: { 'completions.create': bodyMethod(endpoint as ModelEndpoint, follow) },
  returns: { withPrefix: 'self' },
});

async function traced(fn: () => Promise<unknown>): Promise<DecodedSpan[]> {
  let traceId = '';
  await startActiveObservation('root', async (obs) => {
    traceId = obs.traceId;
    await fn();
  });
  await local.handle.flush();
  return local.server.spansByTrace(traceId).filter((s) => s.name !== 'root');
}
const attr = (s: DecodedSpan, key: string) => s.attributes[`obs.observation.${key}`];

describe('observeClient', () => {
  it('traces the method and the helpers built on it once each; the client’s own state, methods and functions work; the original stays untraced', async () => {
    const original = new FakeClient();
    const client = observeClient(original, spec());
    expect(client).toBeInstanceOf(FakeClient);
    expect(client.secret).toBe('private-state');
    expect(client.reveal()).toBe('private-state');
    // A function the client holds is handed out as it is (not bound to the client).
    expect(client.fetch).toBe(original.fetch);
    expect(client.frozen).toBe(original.frozen);
    expect(client.completions).toBe(client.completions);
    expect(client.completions.create).toBe(client.completions.create);
    const spans = await traced(async () => {
      await client.completions.create({ prompt: 'a' });
      await client.completions.ask('b');
      await client.completions.viaClient('c');
      await client.withPrefix().completions.create({ prompt: 'd' });
      await original.completions.create({ prompt: 'untraced' });
    });
    expect(spans.map((s) => attr(s, 'input'))).toEqual(['a', 'b', 'c', 'd']);
    expect(spans.map((s) => attr(s, 'output'))).toEqual(['echo a', 'echo b', 'echo c', 'echo d']);
    expect(original.sent).toEqual(['a', 'b', 'c', 'untraced']);
  });

  it('a streamed result is watched: completion start at the first chunk; a caller who leaves gets WARNING', async () => {
    const client = observeClient(new FakeClient(), spec());
    const spans = await traced(async () => {
      for await (const _ of (await client.completions.create({ prompt: 'x y', stream: true })) as AsyncIterable<string>);
      for await (const _ of (await client.completions.create({ prompt: 'z', stream: true })) as AsyncIterable<string>) break;
    });
    expect(spans).toHaveLength(2);
    expect(attr(spans[0]!, 'output')).toBe('echo x y');
    expect(attr(spans[0]!, 'completion_start_time')).toBeDefined();
    expect(attr(spans[1]!, 'level')).toBe('WARNING');
    expect(attr(spans[1]!, 'output')).toBe('echo');
  });

  it('a mapping bug is one warning and an unchanged call: request reader, response reader, follower', async () => {
    const logs = captureLogs();
    try {
      const broken = (part: 'request' | 'response') => ({
        ...ENDPOINT,
        [part]: () => {
          throw new Error(`${part} reader bug`);
        },
      });
      const noRequest = observeClient(new FakeClient(), spec(broken('request') as never));
      const noResponse = observeClient(new FakeClient(), spec(broken('response') as never));
      const noFollower = observeClient(
        new FakeClient(),
        spec(undefined, () => {
          throw new Error('follower bug');
        }),
      );
      const results: unknown[] = [];
      const spans = await traced(async () => {
        results.push(await noRequest.completions.create({ prompt: 'a' }));
        results.push(await noRequest.completions.create({ prompt: 'a' }));
        results.push(await noResponse.completions.create({ prompt: 'b' }));
        results.push(await noFollower.completions.create({ prompt: 'c' }));
      });
      expect(results).toEqual(['a', 'a', 'b', 'c'].map((p) => ({ text: `echo ${p}`, tokens: 3 })));
      // No observation for the call its request could not be read for; the others end without output.
      expect(spans.map((s) => [attr(s, 'input'), attr(s, 'output')])).toEqual([
        ['b', undefined],
        ['c', undefined],
      ]);
      expect(attr(spans[1]!, 'status_message')).toMatch(/could not follow the result/);
      const warnings = logs.filter((l) => l.level === 'warn' && l.message.includes('@obs/fake'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.message).toMatch(/request reader bug/);
      expect(logs.filter((l) => l.level === 'debug' && /reader bug|follower bug/.test(l.message))).toHaveLength(3);
    } finally {
      restoreLogger();
    }
  });
});

describe('watchIterator', () => {
  it('ends once however the stream ends; a watcher that throws is one warning, the stream goes on', async () => {
    const logs = captureLogs();
    try {
      const ends: string[] = [];
      const it = watchIterator(words('a b c'), {
        item: () => {
          throw new Error('watcher bug');
        },
        end: (how) => ends.push(how),
      });
      const got: string[] = [];
      for await (const w of it) got.push(w);
      await it.return(undefined);
      expect(got).toEqual(['a', 'b', 'c']);
      expect(ends).toEqual(['done']);
      expect(logs.filter((l) => l.level === 'warn' && l.message.includes('watcher failed'))).toHaveLength(1);
    } finally {
      restoreLogger();
    }
  });
});
