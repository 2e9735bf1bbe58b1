/**
 * The tracing API never throws into the app: hostile names, attributes, options and results
 * are recorded as placeholders with at most one warning; the user's return values and
 * exceptions pass through unchanged. Spans are checked on the server.
 */

import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { observe, startActiveObservation, startObservation, updateActiveObservation } from '../../src/index.js';
import { captureLogs } from '../support/server.js';
import { TRACING_KEYS, tracingInit } from '../tracing/harness.js';

const { server, handle: tracing } = await setupObsServer({ ...TRACING_KEYS, init: tracingInit() }).ready;
const logs = captureLogs();

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({ a: 1 }, {});
  revoke();
  return proxy;
}
const throwingToString = {
  toString: () => {
    throw new Error('no string');
  },
};
const nullProto = Object.create(null) as object;
const throwingGetter = Object.defineProperty({}, 'secret', {
  enumerable: true,
  get: () => {
    throw new Error('getter blew up');
  },
});
const throwingThen = Object.defineProperty({}, 'then', {
  enumerable: true,
  get: () => {
    throw new Error('then getter');
  },
});
const throwingProxy = new Proxy(
  {},
  {
    get: () => {
      throw new Error('proxy get');
    },
    ownKeys: () => {
      throw new Error('proxy keys');
    },
  },
);

const hostileNames: Array<[string, unknown]> = [
  ['null-prototype object', nullProto],
  ['throwing toString', throwingToString],
  ['revoked Proxy', revoked()],
  ['throwing Proxy', throwingProxy],
  ['Symbol', Symbol('s')],
];
const hostileValues: Array<[string, unknown]> = [
  ['throwing getter', throwingGetter],
  ['revoked Proxy', revoked()],
  ['throwing Proxy', throwingProxy],
  ['throwing then getter', throwingThen],
];

afterAll(() => {
  // Every hostile value of this file together: at most one warning.
  expect(logs.filter((l) => l.level === 'warn' && /could not be read/.test(l.message)).length).toBeLessThanOrEqual(1);
});

describe('names', () => {
  it.each(hostileNames)('startObservation with a %s as name does not throw and exports a span', async (_label, name) => {
    expect(() => startObservation(name as string).end()).not.toThrow();
    await tracing.flush();
    expect(server.spans()).toHaveLength(1);
    expect(typeof server.spans()[0]!.name).toBe('string');
  });
});

describe('attributes and options', () => {
  it.each(hostileValues)('input, output and metadata as a %s become placeholders', async (_label, value) => {
    expect(() => {
      const obs = startObservation('attrs', { input: value, metadata: value });
      obs.update({ output: value });
      obs.end();
    }).not.toThrow();
    await tracing.flush();
    const [span] = server.spansByName('attrs');
    expect(span).toBeDefined();
    expect(JSON.stringify(span!.attributes)).toMatch(/unserialisable/);
  });

  it.each(hostileValues)('a %s as attributes object or options never throws', async (_label, value) => {
    expect(() => startObservation('as-attrs', value as never, value as never).end()).not.toThrow();
    expect(() => startActiveObservation('active', () => updateActiveObservation(value as never), value as never)).not.toThrow();
    await tracing.flush();
    expect(server.spansByName('as-attrs')).toHaveLength(1);
    expect(server.spansByName('active')).toHaveLength(1);
  });

  it('observe(fn, null) works like observe(fn)', async () => {
    const wrapped = observe(function named(x: number) {
      return x + 1;
    }, null as never);
    expect(wrapped(1)).toBe(2);
    await tracing.flush();
    expect(server.spans().map((s) => s.name)).toEqual(['named']);
  });
});

describe('results and exceptions pass through unchanged', () => {
  it.each(hostileValues)('a function returning a %s: the caller gets that very value and the observation ends', async (_label, value) => {
    const wrapped = observe(() => value, { name: 'returns-hostile' });
    let got: unknown;
    expect(() => (got = wrapped())).not.toThrow();
    expect(got).toBe(value);
    await tracing.flush();
    expect(server.spansByName('returns-hostile')).toHaveLength(1);
  });

  it('an async function resolving to a revoked Proxy resolves to it; a thrown error is rethrown as is', async () => {
    const value = revoked();
    const resolved = await observe(async () => [value], { name: 'async-hostile' })();
    expect(resolved[0]).toBe(value);
    const error = new Error('mine');
    await expect(
      observe(
        async () => {
          throw error;
        },
        { name: 'async-throws' },
      )(),
    ).rejects.toBe(error);
    await tracing.flush();
    expect(server.spansByName('async-hostile')).toHaveLength(1);
    expect(server.spansByName('async-throws')).toHaveLength(1);
  });
});
