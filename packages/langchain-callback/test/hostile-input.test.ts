/**
 * Hostile input never reaches LangChain as an exception: the constructor and every hook take
 * throwing getters, revoked and throwing Proxies, null-prototype objects, 10,000-deep values,
 * huge strings and Buffers; every run still becomes exactly one span on the local server, no run
 * stays open, and each kind of problem is logged at most once.
 */
import { dispatchCustomEvent } from '@langchain/core/callbacks/dispatch';
import { Document } from '@langchain/core/documents';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { DynamicTool } from '@langchain/core/tools';
import { FakeListChatModel, FakeRetriever } from '@langchain/core/utils/testing';
import { MASK_FAILED, setLogger } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { describe, expect, it } from 'vitest';
import { CallbackHandler } from '../src/index.js';
import { attr, initTestObs, metadata, one, settle, setupObsServer } from './support.js';

const warnings: string[] = [];
const h = setupObsServer({ init: initTestObs });
setLogger({ debug() {}, info() {}, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(`error: ${m}`) });

// The hostile values, made fresh for each use.

function throwingGetter(): object {
  return Object.defineProperty({ ok: 'kept' }, 'bad', {
    enumerable: true,
    get: () => {
      throw new Error('getter blew up');
    },
  });
}
function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({ a: 1 }, {});
  revoke();
  return proxy;
}
const TRAPS = [
  'get',
  'set',
  'has',
  'ownKeys',
  'getOwnPropertyDescriptor',
  'getPrototypeOf',
  'setPrototypeOf',
  'defineProperty',
  'deleteProperty',
  'isExtensible',
  'preventExtensions',
  'apply',
  'construct',
] as const;
/** A Proxy whose every trap throws (a function target, so `apply` and `construct` are traps too). */
function throwingProxy(): object {
  const handler: ProxyHandler<object> = {};
  for (const trap of TRAPS)
    (handler as Record<string, unknown>)[trap] = () => {
      throw new Error(`trap ${trap}`);
    };
  return new Proxy(() => {}, handler);
}
function nullPrototype(): object {
  return Object.assign(Object.create(null) as object, { a: 1, nested: Object.create(null) as object });
}
function deep(levels: number): object {
  let v: object = { leaf: true };
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}
/** A flat one-byte string of 20 M characters (not a rope, which costs its reader a flattening). */
const HUGE = Buffer.alloc(20_000_000, 'x').toString('latin1');

const HOSTILE: Array<[string, () => unknown]> = [
  ['a throwing getter', throwingGetter],
  ['a revoked Proxy', revokedProxy],
  ['a Proxy whose every trap throws', throwingProxy],
  ['a null-prototype object', nullPrototype],
  ['a 10,000-deep object', () => deep(10_000)],
  ['a 20 M-character string', () => HUGE],
  ['a Buffer', () => Buffer.alloc(64 * 1024, 1)],
];

/** Count warning lines by kind; a line of no known kind fails the last test. */
const KINDS: Record<string, RegExp> = {
  options: /CallbackHandler: (options|ignored options)/,
  unreadable: /CallbackHandler: .* could not be read/,
  hookFailed: /CallbackHandler\.\w+ failed/,
  coreUnreadable: /a value given to obs could not be read/,
  coreTraceAttributes: /propagateAttributes: dropped invalid values/,
};

const NAMES = ['input', 'output'] as const;
function io(span: DecodedSpan, key: (typeof NAMES)[number]): unknown {
  return attr(span, `obs.observation.${key}`);
}

/**
 * Three root runs with tags of their own: each gets its own parent context, for which core
 * validates the trace attributes; the handler's options must not cost a warning per root.
 */
async function threeRoots(handler: CallbackHandler): Promise<DecodedSpan[]> {
  const flow = RunnableLambda.from((x: string) => x).withConfig({ runName: 'flow' });
  for (let i = 0; i < 3; i++) await flow.invoke('q', { callbacks: [handler], tags: [`root-${i}`] });
  const spans = await settle(h);
  expect(spans).toHaveLength(3);
  return spans;
}

describe('the constructor', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['a Proxy whose every trap throws', throwingProxy()],
    ['a revoked Proxy', revokedProxy()],
    ['a number', 42],
    ['a null-prototype object', Object.create(null)],
  ])('new CallbackHandler(%s) gives a handler with the default options that traces', async (_label, options) => {
    const handler = new CallbackHandler(options as never);
    expect(handler.awaitHandlers).toBe(true); // inline, the default
    const out = await RunnableLambda.from((x: string) => `${x}!`)
      .withConfig({ runName: 'plain' })
      .invoke('hi', { callbacks: [handler] });
    expect(out).toBe('hi!');
    const spans = await settle(h);
    expect(spans).toHaveLength(1);
    expect(io(one(spans, 'plain'), 'output')).toBe('hi!');
    expect(attr(spans[0], 'user.id')).toBeUndefined();
    expect(handler.openRuns).toBe(0);
  });

  it('an option that cannot be read or used is replaced by its default; the readable ones are kept', async () => {
    const options = Object.defineProperties(
      { userId: 'u-1', sessionId: 42, tags: ['ok', 7], abandonAfterMs: Number.NaN, maxOpenRuns: -1, background: 'yes', traceName: HUGE },
      {
        version: {
          enumerable: true,
          get: () => {
            throw new Error('no version');
          },
        },
        traceMetadata: { enumerable: true, value: { team: 'search', bad: throwingGetter(), deep: deep(10_000) } },
      },
    );
    const handler = new CallbackHandler(options as never);
    expect(handler.awaitHandlers).toBe(true);
    const tracker = (handler as unknown as { tracker: { options: Record<string, number> } }).tracker.options;
    expect([tracker['abandonAfterMs'], tracker['maxOpenRuns']]).toEqual([600_000, 10_000]);
    const spans = await threeRoots(handler);
    for (const span of spans) {
      expect(attr(span, 'user.id')).toBe('u-1');
      expect(attr(span, 'session.id')).toBeUndefined();
      expect(attr(span, 'obs.trace.name')).toBeUndefined(); // 20 M characters: core refuses it
      expect(attr(span, 'obs.trace.metadata.team')).toBe('search');
      expect(attr(span, 'obs.trace.metadata.bad')).toMatch(/unserialisable: getter blew up/);
    }
    expect(spans.map((s) => String(attr(s, 'obs.trace.tags'))).sort()).toEqual(['root-0', 'root-1', 'root-2']);
  });

  it('trace metadata that is not JSON is dropped once, when the handler is made, not at every root', async () => {
    const handler = new CallbackHandler({ traceMetadata: { big: 10n }, userId: 'u-2' });
    for (const span of await threeRoots(handler)) {
      expect(attr(span, 'user.id')).toBe('u-2');
      expect(Object.keys(span.attributes).filter((k) => k.startsWith('obs.trace.metadata'))).toEqual([]);
    }
    // The log lines test below counts core's trace-attribute lines: one in this whole file.
  });

  it('a mask that cannot run masks every value (it never fails open)', async () => {
    const notAFunction = new CallbackHandler({ mask: 'redact please' as never });
    const unreadable = new CallbackHandler(
      Object.defineProperty({}, 'mask', {
        enumerable: true,
        get: () => {
          throw new Error('no mask');
        },
      }),
    );
    for (const handler of [notAFunction, unreadable])
      await RunnableLambda.from(() => 'secret answer')
        .withConfig({ runName: 'masked' })
        .invoke('secret question', { callbacks: [handler] });
    const spans = await settle(h);
    expect(spans).toHaveLength(2);
    for (const span of spans) expect([io(span, 'input'), io(span, 'output')]).toEqual([MASK_FAILED, MASK_FAILED]);
  });
});

describe('hostile values through real runnables: LangChain behaves as without the handler, every run is one span', () => {
  /** What an invocation did: its value, or the message it rejected with. */
  async function outcome(run: () => Promise<unknown>): Promise<unknown> {
    try {
      return { value: await run() };
    } catch (err) {
      return { rejected: (err as Error).message };
    }
  }

  it.each(HOSTILE)(
    '%s as a chain input, output, custom event, metadata value, tool output and retrieved document',
    async (_label, make) => {
      const handler = new CallbackHandler();
      const value = make();
      const tool = new DynamicTool({ name: 'hostile-tool', description: 'd', func: async () => value as string });
      const retriever = new FakeRetriever({ output: [new Document({ pageContent: 'doc', metadata: { value } })] });
      const lambda = (where: string) =>
        RunnableLambda.from(async (_x: unknown) => {
          if (where === 'event') await dispatchCustomEvent('hostile-event', value);
          return where === 'output' ? value : 'fine';
        }).withConfig({ runName: `lambda-${where}` });
      const cases: Array<[string, (callbacks: CallbackHandler[]) => Promise<unknown>]> = [
        ['input', (callbacks) => lambda('input').invoke(value, { callbacks })],
        ['output', (callbacks) => lambda('output').invoke('in', { callbacks })],
        ['event', (callbacks) => lambda('event').invoke('in', { callbacks })],
        ['metadata', (callbacks) => lambda('metadata').invoke('in', { callbacks, metadata: { value, kept: 'yes' } })],
        ['tool', (callbacks) => tool.invoke('go', { callbacks })],
        ['retriever', (callbacks) => retriever.invoke('find', { callbacks })],
      ];
      let expected = 0;
      const resolved = new Set<string>();
      for (const [where, invoke] of cases) {
        const bare = await outcome(() => invoke([]));
        const traced = await outcome(() => invoke([handler]));
        expect(traced, where).toEqual(bare);
        if ('value' in (traced as object)) resolved.add(where);
        // LangChain itself rejects some values before any callback (a revoked Proxy as input).
        if (where !== 'input' || resolved.has('input')) expected += where === 'event' ? 2 : 1;
      }
      const spans = await settle(h);
      expect(spans).toHaveLength(expected);
      expect(handler.openRuns).toBe(0);
      // The hostile value is recorded, as far as it can be read, where LangChain delivered it.
      const recorded: Array<[string, string, 'input' | 'output']> = [
        ['input', 'lambda-input', 'input'],
        ['output', 'lambda-output', 'output'],
        ['event', 'hostile-event', 'input'],
        ['tool', 'hostile-tool', 'output'],
      ];
      for (const [where, span, key] of recorded) if (resolved.has(where)) expect(io(one(spans, span), key), span).toMatch(/./);
      // The run's metadata is kept key by key; a value core cannot flatten (a Proxy that throws on
      // every trap) makes core record the whole metadata as its placeholder (core's to refine).
      const withMetadata = one(spans, 'lambda-metadata');
      const kept = metadata(withMetadata, 'kept') === 'yes';
      expect(kept || /unserialisable/.test(String(attr(withMetadata, 'obs.observation.metadata')))).toBe(true);
    },
  );

  it('a chat model run with hostile metadata values and streamed tokens: one generation with its output', async () => {
    const handler = new CallbackHandler();
    const model = new FakeListChatModel({ responses: ['streamed answer'] });
    let text = '';
    for await (const chunk of await model.stream('hi', {
      callbacks: [handler],
      metadata: { a: throwingGetter(), b: revokedProxy(), c: 'kept' },
    }))
      text += chunk.content as string;
    expect(text).toBe('streamed answer');
    const spans = await settle(h);
    const gen = one(spans, 'FakeListChatModel');
    expect(spans).toHaveLength(1);
    expect(JSON.parse(io(gen, 'output') as string)).toMatchObject({ role: 'assistant', content: 'streamed answer' });
    expect(metadata(gen, 'c')).toBe('kept');
    expect(metadata(gen, 'a')).toMatch(/unserialisable/);
  });
});

// Every hook as LangChain calls it, with one hostile argument at a time.

type Args = unknown[];
interface Hook {
  hook: string;
  /** Valid arguments for run `id` (the run id is the `runIdAt`-th). */
  args: (id: unknown, name?: string) => Args;
  runIdAt: number;
}
/** A start hook: where its run name and input are, and the input attribute its valid input gives. */
interface StartHook extends Hook {
  nameAt: number;
  inputAt: number;
  input: string;
}
const SERIALIZED = { lc: 1, type: 'not_implemented', id: ['test', 'Thing'] };
const LLM_RESULT = { generations: [[{ text: 'out', message: new AIMessage('out') }]] };
const chainStart: StartHook = {
  hook: 'handleChainStart',
  args: (id, name = 'a-chain') => [SERIALIZED, { q: 'in' }, id, undefined, ['t'], { m: 1 }, 'chain', name, {}],
  runIdAt: 2,
  nameAt: 7,
  inputAt: 1,
  input: '{"q":"in"}',
};
const chainEnd: Hook = { hook: 'handleChainEnd', args: (id) => [{ output: 'out' }, id, undefined, [], {}], runIdAt: 1 };
const chatStart: StartHook = {
  hook: 'handleChatModelStart',
  args: (id, name = 'chat') => [SERIALIZED, [[new HumanMessage('hi')]], id, undefined, { invocation_params: { model: 'm' } }, [], {}, name],
  runIdAt: 2,
  nameAt: 7,
  inputAt: 1,
  input: '[{"role":"user","content":"hi"}]',
};
const llmStart: StartHook = {
  hook: 'handleLLMStart',
  args: (id, name = 'llm') => [SERIALIZED, ['prompt'], id, undefined, {}, [], {}, name],
  runIdAt: 2,
  nameAt: 7,
  inputAt: 1,
  input: 'prompt',
};
const toolStart: StartHook = {
  hook: 'handleToolStart',
  args: (id, name = 'tool') => [SERIALIZED, '{"q":1}', id, undefined, [], {}, name, 'call-1'],
  runIdAt: 2,
  nameAt: 6,
  inputAt: 1,
  input: '{"q":1}',
};
const retrieverStart: StartHook = {
  hook: 'handleRetrieverStart',
  args: (id, name = 'retriever') => [SERIALIZED, 'query', id, undefined, [], {}, name],
  runIdAt: 2,
  nameAt: 6,
  inputAt: 1,
  input: 'query',
};
const STARTS: Array<[StartHook, Hook]> = [
  [chainStart, chainEnd],
  [chatStart, { hook: 'handleLLMEnd', args: (id) => [LLM_RESULT, id], runIdAt: 1 }],
  [llmStart, { hook: 'handleLLMError', args: (id) => [new Error('model failed'), id], runIdAt: 1 }],
  [toolStart, { hook: 'handleToolEnd', args: (id) => ['tool output', id], runIdAt: 1 }],
  [retrieverStart, { hook: 'handleRetrieverEnd', args: (id) => [[{ pageContent: 'doc', metadata: {} }], id], runIdAt: 1 }],
];
/** A streaming chain: LangChain gives its input with its end (`kwargs.inputs`). */
const deferredChainStart: Hook = {
  hook: 'handleChainStart',
  args: (id) => [SERIALIZED, { input: '' }, id, undefined, [], {}, 'chain', 'streaming-chain', { lc_defers_inputs: true }],
  runIdAt: 2,
};
const ENDS: Array<[Hook, Hook]> = [
  ...STARTS,
  [
    deferredChainStart,
    { hook: 'handleChainEnd', args: (id) => [{ output: 'out' }, id, undefined, [], { inputs: { q: 'late' } }], runIdAt: 1 },
  ],
  [chainStart, { hook: 'handleChainError', args: (id) => [new Error('failed'), id, undefined, [], {}], runIdAt: 1 }],
  [toolStart, { hook: 'handleToolError', args: (id) => [new Error('tool failed'), id], runIdAt: 1 }],
  [retrieverStart, { hook: 'handleRetrieverError', args: (id) => [new Error('not found'), id], runIdAt: 1 }],
];
/** Hooks called between a run's start and end; each adds an event span when it finds its run. */
const DURING: Array<[Hook, Hook, Hook, number]> = [
  [chatStart, { hook: 'handleLLMNewToken', args: (id) => ['tok', { prompt: 0, completion: 0 }, id], runIdAt: 2 }, STARTS[1]![1], 0],
  [
    chainStart,
    { hook: 'handleAgentAction', args: (id) => [{ tool: 'search', toolInput: { q: 1 }, log: 'l' }, id], runIdAt: 1 },
    chainEnd,
    1,
  ],
  [chainStart, { hook: 'handleAgentEnd', args: (id) => [{ returnValues: { a: 1 }, log: 'l' }, id], runIdAt: 1 }, chainEnd, 1],
  [chainStart, { hook: 'handleCustomEvent', args: (id) => ['custom', { d: 1 }, id, [], {}], runIdAt: 2 }, chainEnd, 1],
];

/** Calls a hook as LangChain does; the handler's hooks are synchronous (nothing to reject). */
function call(handler: CallbackHandler, hook: string, args: Args): void {
  const result = (handler as unknown as Record<string, (...a: Args) => unknown>)[hook]!(...args);
  expect(result).toBeUndefined();
}

/** `hook`'s valid arguments for run `id`, with the one at `position` replaced by `value`. */
function hostileArgs(hook: Hook, id: unknown, position: number, value: unknown): Args {
  const args = hook.args(id);
  args[position] = value;
  return args;
}

function positions(hook: Hook): number[] {
  return [...hook.args('x').keys()];
}

let ids = 0;
const newRunId = () => `run-${++ids}`;

describe('every hook, one hostile argument at a time', () => {
  it.each(HOSTILE)(
    '%s in each argument of each start hook: no throw, one span per run, the other arguments recorded',
    async (_label, make) => {
      let runs = 0;
      /** Span name -> the input its run was started with (runs whose name argument was not the hostile one). */
      const inputs = new Map<string, string>();
      for (const background of [false, true]) {
        const handler = new CallbackHandler({ background });
        for (const [start, end] of STARTS) {
          for (const position of positions(start)) {
            const value = make();
            // As the run id, the hostile value is the id its end callback gives too.
            const id = position === start.runIdAt ? value : newRunId();
            const name = `${start.hook}-${position}-${background}`;
            const args = start.args(id, name);
            args[position] = value;
            // LangChain's synchronous start hook sees the same arguments (it registers background runs).
            expect(() => call(handler, `_createRunFor${start.hook.slice('handle'.length)}`, args)).not.toThrow();
            expect(() => call(handler, start.hook, args)).not.toThrow();
            expect(() => call(handler, end.hook, end.args(id))).not.toThrow();
            runs++;
            if (position !== start.nameAt && position !== start.inputAt) inputs.set(name, start.input);
          }
        }
        expect(handler.openRuns).toBe(0);
      }
      const spans = await settle(h);
      expect(spans).toHaveLength(runs);
      // A hostile argument costs only what it holds: the input of every other run is as given.
      for (const [name, input] of inputs) expect(io(one(spans, name), 'input'), name).toBe(input);
      for (const span of spans) {
        expect(io(span, 'input'), span.name).toEqual(expect.any(String));
        // An argument of the wrong shape (a Buffer as metadata) is not walked key by key.
        expect(Object.keys(span.attributes).length, span.name).toBeLessThan(30);
      }
    },
  );

  it.each(HOSTILE)('%s in each argument of each end hook: no throw, the run ends once', async (_label, make) => {
    const handler = new CallbackHandler();
    let runs = 0;
    let failed = 0;
    for (const [start, end] of ENDS) {
      for (const position of positions(end)) {
        const runId = newRunId();
        call(handler, start.hook, start.args(runId));
        expect(() => call(handler, end.hook, hostileArgs(end, runId, position, make()))).not.toThrow();
        // A hostile run id finds no run: the run is then ended by a normal end.
        if (position === end.runIdAt) call(handler, end.hook, end.args(runId));
        runs++;
        if (end.hook.endsWith('Error')) failed++;
      }
    }
    expect(handler.openRuns).toBe(0);
    const spans = await settle(h);
    expect(spans).toHaveLength(runs);
    // A run that failed is an error whatever was thrown (even a value whose message cannot be read).
    expect(spans.filter((s) => attr(s, 'obs.observation.level') === 'ERROR')).toHaveLength(failed);
  });

  it.each(HOSTILE)(
    '%s in each argument of the token, agent and custom event hooks: no throw, the run and its events',
    async (_label, make) => {
      const handler = new CallbackHandler();
      let expected = 0;
      for (const [start, during, end, events] of DURING) {
        for (const position of positions(during)) {
          const runId = newRunId();
          call(handler, start.hook, start.args(runId));
          expect(() => call(handler, during.hook, hostileArgs(during, runId, position, make()))).not.toThrow();
          call(handler, end.hook, end.args(runId));
          // A hostile run id finds no run, so no event.
          expected += 1 + (position === during.runIdAt ? 0 : events);
        }
      }
      expect(handler.openRuns).toBe(0);
      const spans = await settle(h);
      expect(spans).toHaveLength(expected);
    },
  );
});

describe('log lines', () => {
  it('every case above together logged at most one warning per kind, and nothing else', () => {
    const counts: Record<string, number> = {};
    for (const line of warnings) {
      const kind = Object.keys(KINDS).find((k) => KINDS[k]!.test(line));
      expect(kind, `a warning of no known kind: ${line.slice(0, 300)}`).toBeDefined();
      counts[kind!] = (counts[kind!] ?? 0) + 1;
    }
    // The options, the unreadable values; core's own line for the trace name it refused (once,
    // when the handler was made, not for each root) and for the values it records as placeholders.
    expect(counts).toEqual({ options: 1, unreadable: 1, coreTraceAttributes: 1, coreUnreadable: 1 });
  });
});
