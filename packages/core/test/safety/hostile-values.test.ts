/**
 * The tracing API never throws into the app: hostile names, attributes, options and results
 * are recorded as placeholders with at most one warning; the user's return values and
 * exceptions pass through unchanged. Input never stalls the app either: binary data of any size
 * is recorded as its size and type without being read, deep values are cut at a documented depth,
 * a throwing getter loses only its own key, names that are not strings read well; and no hostile
 * value at any entry point throws, rejects or holds the event loop past a bound measured in the
 * same run (the same call with a plain value, a copy of the value). Spans are checked on the server.
 */

import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  createTraceId,
  ObsClient,
  observe,
  propagateAttributes,
  startActiveObservation,
  startObservation,
  updateActiveObservation,
} from '../../src/index.js';
import { DEPTH_MARKER, MAX_SERIALISED_DEPTH, reasonOf } from '../../src/util/serialize.js';
import { captureLogs } from '../support/server.js';
import { copyBudget, leastOf } from '../support/yardstick.js';
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

const MB = 1024 * 1024;
const INPUT = 'obs.observation.input';
const OUTPUT = 'obs.observation.output';

/** One pass over the bytes of `value` at memory speed (a search for a byte none holds), or nothing for a Blob. */
function scanOf(value: unknown): () => void {
  if (ArrayBuffer.isView(value)) return () => Buffer.from(value.buffer, value.byteOffset, value.byteLength).indexOf(1);
  if (value instanceof ArrayBuffer || value instanceof SharedArrayBuffer) return () => Buffer.from(value).indexOf(1);
  return () => undefined;
}

describe('binary data of any size', () => {
  // Binary data in an input is media: kept by reference on the request path, uploaded (hashed off
  // the event loop) once the span ended, and exported as its reference; past 50 MiB the marker.
  // A Blob, which only reads asynchronously, stays described.
  const reference = /^@@@obsMedia:type=application\/octet-stream\|id=[\w.~-]+\|source=bytes@@@$/;
  it.each([
    ['a 20 MB Buffer', () => Buffer.alloc(20 * MB), reference],
    ['a 100 MB Buffer', () => Buffer.alloc(100 * MB), `[media upload failed: application/octet-stream, ${100 * MB} bytes]`],
    ['a 20 MB Uint8Array', () => new Uint8Array(20 * MB), reference],
    ['a Float64Array', () => new Float64Array(1000), reference],
    ['a DataView', () => new DataView(new ArrayBuffer(16)), reference],
    ['a 5 MB ArrayBuffer', () => new ArrayBuffer(5 * MB), reference],
    ['a SharedArrayBuffer', () => new SharedArrayBuffer(64), reference],
    ['a Blob', () => new Blob(['abc']), '[binary 3 bytes, Blob]'],
  ])(
    '%s as input, output and metadata is never read on the request path (no toJSON, as quick as a plain value), and exported as media',
    async (_label, make, expected) => {
      const value = make();
      const toJSON = vi.spyOn(Buffer.prototype, 'toJSON');
      const record = (name: string, v: unknown) => () => {
        const observation = startObservation(name, { input: v, metadata: { file: v } });
        observation.update({ output: { files: [v] } });
        observation.end();
      };
      // Yardsticks of the same run: the same calls with a short string, and one pass over the
      // bytes at memory speed (hashing or encoding them would take many times that).
      const [took, plainTook, scanTook] = leastOf([record('binary', value), record('plain', 'x'), scanOf(value)]) as [
        number,
        number,
        number,
      ];
      expect(toJSON).not.toHaveBeenCalled();
      toJSON.mockRestore();
      await tracing.flush();
      const spans = server.spansByName('binary');
      expect(spans).toHaveLength(3);
      const input = spans[0]!.attributes[INPUT] as string;
      if (typeof expected === 'string') expect(input).toBe(expected);
      else expect(input).toMatch(expected);
      for (const span of spans) {
        expect(span.attributes[INPUT]).toBe(input);
        expect(span.attributes['obs.observation.metadata.file']).toBe(input);
        expect(span.attributes[OUTPUT]).toBe(JSON.stringify({ files: [input] }));
      }
      // Same bytes, one upload.
      expect(server.media.uploads.length).toBe(typeof expected === 'string' ? 0 : 1);
      expect(
        took,
        `took ${took.toFixed(2)} ms, a plain value ${plainTook.toFixed(2)} ms, a pass over the bytes ${scanTook.toFixed(2)} ms`,
      ).toBeLessThan(10 * plainTook + scanTook);
    },
  );
});

describe('deep values', () => {
  function nested(levels: number): object {
    let value: object = { level: levels - 1 };
    for (let i = levels - 2; i >= 0; i--) value = { level: i, child: value };
    return value;
  }

  it(`a 10,000-deep input is cut at ${MAX_SERIALISED_DEPTH} levels with a marker; the levels above arrive readable`, async () => {
    const deep = nested(10_000);
    let deepArray: unknown[] = [];
    for (let i = 0; i < 10_000; i++) deepArray = [i, deepArray];
    // The yardstick, same run: a value just past the cut, which costs what the cut value may cost.
    let shallowArray: unknown[] = [];
    for (let i = 0; i < MAX_SERIALISED_DEPTH + 1; i++) shallowArray = [i, shallowArray];
    const shallow = nested(MAX_SERIALISED_DEPTH + 1);
    const [took, shallowTook] = leastOf([
      () => startObservation('deep', { input: deep, output: deepArray }).end(),
      () => startObservation('shallow', { input: shallow, output: shallowArray }).end(),
    ]) as [number, number];
    await tracing.flush();
    const span = server.spansByName('deep')[0]!;
    let level = JSON.parse(String(span.attributes[INPUT])) as { level: number; child: unknown };
    for (let i = 0; i < MAX_SERIALISED_DEPTH - 1; i++) {
      expect(level.level).toBe(i);
      level = level.child as typeof level;
    }
    expect(level).toEqual({ level: MAX_SERIALISED_DEPTH - 1, child: DEPTH_MARKER });
    expect(String(span.attributes[OUTPUT])).toContain(DEPTH_MARKER);
    expect(took, `took ${took.toFixed(2)} ms, ${MAX_SERIALISED_DEPTH + 1} levels ${shallowTook.toFixed(2)} ms`).toBeLessThan(
      10 * shallowTook,
    );
  });
});

describe('a getter that throws', () => {
  it('loses only its own key: the readable keys of input, output and metadata arrive', async () => {
    const withThrowingKey = () =>
      Object.defineProperty({ question: 'What is obs?', n: 42 }, 'secret', {
        enumerable: true,
        get: () => {
          throw new Error('getter blew up');
        },
      });
    const observation = startObservation('getter', { input: withThrowingKey(), metadata: withThrowingKey() });
    observation.update({ output: { answer: withThrowingKey() } });
    observation.end();
    await tracing.flush();
    const span = server.spansByName('getter')[0]!;
    const placeholder = '[unserialisable: getter blew up]';
    expect(JSON.parse(String(span.attributes[INPUT]))).toEqual({ question: 'What is obs?', n: 42, secret: placeholder });
    expect(JSON.parse(String(span.attributes[OUTPUT]))).toEqual({ answer: { question: 'What is obs?', n: 42, secret: placeholder } });
    expect(span.attributes['obs.observation.metadata.question']).toBe('What is obs?');
    expect(span.attributes['obs.observation.metadata.n']).toBe(42);
    expect(span.attributes['obs.observation.metadata.secret']).toBe(placeholder);
  });
});

describe('names that are not strings', () => {
  class Tool {
    toString() {
      return 'tool:search';
    }
  }
  it.each([
    ['{}', {}, '{}'],
    ['an object', { id: 7, kind: 'retriever' }, '{"id":7,"kind":"retriever"}'],
    ['an array', ['a', 1], '["a",1]'],
    ['a number', 42, '42'],
    ['a boolean', true, 'true'],
    ['a symbol', Symbol('step'), 'Symbol(step)'],
    ['a named function', function retrieve() {}, 'retrieve'],
    ['a class with toString', new Tool(), 'tool:search'],
    ['a URL', new URL('https://obs.example/a'), 'https://obs.example/a'],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { step: 1 }), '{"step":1}'],
    [
      'a very long object',
      { text: 'x'.repeat(1000) },
      expect.stringMatching(/^\{"text":"x{100,}.*…\[truncated by obs: \d+ more characters\]$/),
    ],
  ])('%s gets a readable name, never [object Object]', async (_label, name, expected) => {
    startObservation(name as string).end();
    observe(() => 1, { name: name as string })();
    await tracing.flush();
    const names = server.spans().map((s) => s.name);
    expect(names).toEqual([expected, expected]);
    for (const n of names) expect(n).not.toContain('[object Object]');
  });
});

describe('createTraceId', () => {
  it('never rejects: an unreadable seed gives a random id (one warning at most); a readable one stays deterministic', async () => {
    await expect(createTraceId(throwingProxy as never)).resolves.toMatch(/^[0-9a-f]{32}$/);
    await expect(createTraceId(revoked() as never)).resolves.toMatch(/^[0-9a-f]{32}$/);
    await expect(createTraceId(throwingToString as never)).resolves.toMatch(/^[0-9a-f]{32}$/);
    expect(await createTraceId('request-42')).toBe(await createTraceId('request-42'));
  });
});

describe('no hostile value, at any entry point', () => {
  const deepValue = (() => {
    let v: object = {};
    for (let i = 0; i < 10_000; i++) v = { v };
    return v;
  })();
  const cycle: Record<string, unknown> = { a: 1 };
  cycle.self = cycle;
  const values: Array<[string, unknown]> = [
    ...hostileNames,
    ...hostileValues,
    ['undefined', undefined],
    ['null', null],
    ['NaN', Number.NaN],
    ['BigInt', 10n ** 30n],
    ['a function', () => 1],
    ['a 20 MB Buffer', Buffer.alloc(20 * MB)],
    ['a 10 MB Uint8Array', new Uint8Array(10 * MB)],
    ['an ArrayBuffer', new ArrayBuffer(MB)],
    ['a 10,000-deep object', deepValue],
    ['a cycle', cycle],
    ['an invalid Date', new Date(Number.NaN)],
    ['a Map with object keys', new Map([[{ k: 1 }, new Set([1n])]])],
    ['an Error', new TypeError('bad')],
    [
      'a throwing toJSON',
      {
        toJSON() {
          throw new Error('toJSON');
        },
      },
    ],
    ['a 5 MB string', 'x'.repeat(5 * MB)],
    ['an object of a 5 MB string', { text: 'x'.repeat(5 * MB) }],
  ];
  const client = new ObsClient({ baseUrl: 'http://127.0.0.1:1', publicKey: 'pk', secretKey: 'sk', flushInterval: 3600 });
  const entryPoints: Array<[string, (v: unknown) => unknown]> = [
    ['startObservation name', (v) => startObservation(v as string).end()],
    ['startObservation attributes', (v) => startObservation('e', v as never).end()],
    ['input/output/metadata', (v) => startObservation('e', { input: v, metadata: v }).update({ output: v }).end()],
    ['startObservation options', (v) => startObservation('e', {}, v as never).end()],
    [
      'startActiveObservation',
      (v) => startActiveObservation(v as string, () => updateActiveObservation({ input: v } as never), v as never),
    ],
    ['updateActiveObservation', (v) => startActiveObservation('e', () => updateActiveObservation(v as never))],
    ['observe options', (v) => observe(() => 1, v as never)()],
    ['observe name', (v) => observe(() => 1, { name: v as string })()],
    ['observe result', (v) => observe(() => v, { name: 'e' })()],
    // An async function returning a value whose `then` cannot be read rejects by itself (the
    // language reads `then`): the caller must see exactly what the function does.
    [
      'observe async result',
      async (v) => {
        const settle = (p: Promise<unknown>) =>
          p.then(
            () => 'fulfilled',
            () => 'rejected',
          );
        const raw = await settle((async () => v)());
        const wrapped = await settle(observe(async () => v, { name: 'e' })());
        if (raw !== wrapped) throw new Error(`the caller saw ${wrapped}, the function ${raw}`);
      },
    ],
    ['propagateAttributes', (v) => propagateAttributes(v as never, () => startObservation('e').end())],
    [
      'propagated values',
      (v) => propagateAttributes({ userId: v, sessionId: v, tags: v, metadata: v } as never, () => startObservation('e').end()),
    ],
    ['createTraceId', (v) => createTraceId(v as string)],
    ['score.create', (v) => client.score.create(v as never)],
    ['score fields', (v) => client.score.create({ traceId: v, name: v, value: v, metadata: v, comment: v } as never)],
  ];
  const cases = values.length * entryPoints.length;

  it(`${cases} cases: none throws, none rejects, none holds the event loop past 100 plain calls (or ten copies of the value)`, async () => {
    const failures: string[] = [];
    for (const [valueLabel, value] of values) {
      for (const [entryLabel, call] of entryPoints) {
        const name = `${entryLabel} with ${valueLabel}`;
        if (process.env.DEBUG_HOSTILE) process.stderr.write(`${name} ${Date.now()}\n`);
        const results: unknown[] = [];
        const plainResults: unknown[] = [];
        let took: number;
        let plainTook: number;
        try {
          // The yardstick, same run: the same entry point with a plain string.
          [took, plainTook] = leastOf([() => results.push(call(value)), () => plainResults.push(call('plain'))]) as [number, number];
        } catch (err) {
          failures.push(`${name} threw ${String(err)}`);
          continue;
        }
        for (const result of plainResults) if (result instanceof Promise) await result.catch(() => undefined);
        if (took >= 100 * plainTook) {
          const budget = Math.max(100 * plainTook, copyBudget(value));
          if (took >= budget) failures.push(`${name} took ${took.toFixed(1)} ms (budget ${budget.toFixed(1)})`);
        }
        for (const result of results) {
          // `observe` hands the hostile value itself back: only promises are awaited.
          const promise = (() => {
            try {
              return result instanceof Promise ? result : undefined;
            } catch {
              return undefined;
            }
          })();
          if (promise) await promise.then(undefined, (err: unknown) => failures.push(`${name} rejected ${reasonOf(err)}`));
        }
      }
    }
    expect(failures).toEqual([]);
    await tracing.flush();
    await client.shutdown({ timeoutMs: 0 });
  });
});
