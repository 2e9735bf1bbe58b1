import type { CallbackManagerForChainRun } from '@langchain/core/callbacks/manager';
import type { AIMessage } from '@langchain/core/messages';
import { Runnable, patchConfig, type RunnableConfig } from '@langchain/core/runnables';
import { DynamicStructuredTool } from '@langchain/core/tools';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CallbackHandler } from '../src/index.js';
import { attr, childrenOf, json, one, settle, type, initTestObs, setupObsServer } from './support.js';

const h = setupObsServer({ init: initTestObs });

/**
 * A minimal agent loop in the style of AgentExecutor: the model decides, the loop reports the
 * decision with `handleAgentAction` on its own run manager (so the action carries the loop's run
 * id), runs the tool, and finishes with `handleAgentEnd`.
 */
class ToolLoop extends Runnable<{ input: string }, { output: string }> {
  lc_namespace = ['obs', 'test'];
  private readonly planner = new FakeListChatModel({ responses: ['search: weather Paris', 'search: weather Lyon', 'final: both sunny'] });
  private readonly search = new DynamicStructuredTool({
    name: 'search',
    description: 'web search',
    schema: z.object({ query: z.string() }),
    func: async ({ query }) => `sunny (${query})`,
  });

  override getName(): string {
    return 'tool-loop';
  }

  override async invoke(input: { input: string }, options?: RunnableConfig): Promise<{ output: string }> {
    return this._callWithConfig(this.loop.bind(this), input, options);
  }

  private async loop(
    input: { input: string },
    config?: Partial<RunnableConfig>,
    runManager?: CallbackManagerForChainRun,
  ): Promise<{ output: string }> {
    const child = () => patchConfig(config ?? {}, { callbacks: runManager?.getChild() });
    let scratch = input.input;
    for (let step = 0; step < 5; step++) {
      const decision = (await this.planner.invoke(scratch, child())) as AIMessage;
      const text = String(decision.content);
      if (text.startsWith('final: ')) {
        const output = text.slice('final: '.length);
        await runManager?.handleAgentEnd({ returnValues: { output }, log: `Final answer: ${output}` });
        return { output };
      }
      const action = { tool: 'search', toolInput: { query: text.slice('search: '.length) }, log: `Thought: I should ${text}` };
      await runManager?.handleAgentAction(action);
      scratch += `\n${await this.search.invoke(action.toolInput, child())}`;
    }
    throw new Error('too many steps');
  }
}

describe('agent actions', () => {
  it('an agent loop is one agent observation with its actions as events; nothing overwritten, orphaned or unexported', async () => {
    for (const background of [false, true]) {
      h.server.reset();
      const handler = new CallbackHandler({ background });
      // Two concurrent loops with the same handler.
      const results = await Promise.all([
        new ToolLoop().invoke({ input: 'weather?' }, { callbacks: [handler] }),
        new ToolLoop().invoke({ input: 'weather?' }, { callbacks: [handler] }),
      ]);
      expect(results.map((r) => r.output)).toEqual(['both sunny', 'both sunny']);
      const spans = await settle(h);

      const loops = spans.filter((s) => s.name === 'tool-loop');
      expect(loops).toHaveLength(2);
      for (const loop of loops) {
        expect(type(loop)).toBe('agent');
        expect(json(loop, 'output')).toBe('both sunny');
        const kids = childrenOf(spans, loop);
        const byName = (n: string) => kids.filter((k) => k.name === n);
        expect(byName('FakeListChatModel')).toHaveLength(3);
        expect(byName('search')).toHaveLength(2);
        const actions = byName('agent action: search');
        expect(actions).toHaveLength(2);
        for (const a of actions) expect(type(a)).toBe('event');
        expect(actions.map((a) => json(a, 'input').query).sort()).toEqual(['weather Lyon', 'weather Paris']);
        expect(attr(actions[0], 'obs.observation.metadata.log')).toMatch(/^Thought: I should search/);
        const finish = one(kids, 'agent finish');
        expect(json(finish, 'output')).toEqual({ output: 'both sunny' });
        expect(kids).toHaveLength(3 + 2 + 2 + 1);
      }
      // Every span's parent was exported too (no orphans), every span once.
      const ids = new Set(spans.map((s) => s.spanId));
      expect(ids.size).toBe(spans.length);
      for (const s of spans) if (s.parentSpanId) expect(ids.has(s.parentSpanId), s.name).toBe(true);
      expect(handler.openRuns).toBe(0);
    }
  });
});
