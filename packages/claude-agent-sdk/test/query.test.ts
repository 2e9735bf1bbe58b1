/**
 * `observeClaudeAgent(query)` with the real Claude Agent SDK, which spawns its bundled Claude Code
 * process, against the stand-in Anthropic Messages API (ANTHROPIC_BASE_URL; no network): a query
 * that runs a Bash command and delegates to a subagent, read back from the local obs server field
 * by field; a query stopped by its turn limit; the caller's messages untouched. Both at the
 * current SDK and at the peer range's floor, 0.1.0 (`claude-agent-sdk-floor`: its subagent tool is
 * still `Task`, it yields neither a subagent's own turns nor a tool's structured result, and it does
 * not throw after an error result).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { query as currentQuery } from '@anthropic-ai/claude-agent-sdk';
import { initObs, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer, initTestObs } from '@obs/local-server/testing';
import { query as floorQuery } from 'claude-agent-sdk-floor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeClaudeAgent } from '../src/index.js';
import { FINAL_OUTPUT_TOKENS, lastUserText, type StandInAnthropic, startStandInAnthropic } from './stand-in-anthropic.js';

const local = setupObsServer({ init: initTestObs(initObs) });
let standIn: StandInAnthropic;
let home: string;

const attr = (s: DecodedSpan, key: string) => s.attributes[`obs.observation.${key}`];
const json = (s: DecodedSpan, key: string) => {
  const v = attr(s, key);
  return typeof v === 'string' ? JSON.parse(v) : v;
};

function options(extra: Record<string, unknown> = {}) {
  return {
    cwd: home,
    model: 'claude-stand-in',
    settingSources: [],
    canUseTool: async (_name: string, input: Record<string, unknown>) => ({ behavior: 'allow' as const, updatedInput: input }),
    env: {
      PATH: process.env.PATH,
      HOME: home,
      ANTHROPIC_BASE_URL: standIn.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-DO-NOT-EXPORT',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
    ...extra,
  };
}

const versions = [
  { sdk: 'current', sdkQuery: currentQuery, throwsAfterErrorResult: true, subagentTurns: true, structuredToolResults: true },
  { sdk: '0.1.0 (the floor)', sdkQuery: floorQuery, throwsAfterErrorResult: false, subagentTurns: false, structuredToolResults: false },
];

describe.each(versions)(
  'observeClaudeAgent(query), @anthropic-ai/claude-agent-sdk $sdk',
  ({ sdkQuery, throwsAfterErrorResult, subagentTurns, structuredToolResults }) => {
    // Each version against its own stand-in: the tool use ids it hands out start at toolu_1.
    beforeAll(async () => {
      home = mkdtempSync(join(tmpdir(), 'obs-claude-home-'));
      standIn = await startStandInAnthropic((body) => {
        const last = lastUserText(body);
        if (last.includes('Count to two')) return { text: 'one two' };
        if (last.includes('RESULT(toolu_1)')) {
          return {
            text: 'Delegating.',
            // The subagent tool the request offers: `Agent`, or `Task` before it was renamed.
            tool: body.tools?.some((t) => t.name === 'Agent') ? 'Agent' : 'Task',
            input: { description: 'count', prompt: 'Count to two', subagent_type: 'general-purpose' },
          };
        }
        if (last.includes('Check the shell'))
          return { text: 'Running it.', tool: 'Bash', input: { command: 'echo hi', description: 'Say hi' } };
        return { text: 'Noted.' };
      });
    });
    afterAll(async () => {
      await standIn?.close();
      rmSync(home, { recursive: true, force: true });
    });
    const query = observeClaudeAgent(sdkQuery);

    it('a query with a Bash tool call and a subagent: one agent, its turns, the tool, the nested subagent', async () => {
      let traceId = '';
      const types: string[] = [];
      await startActiveObservation('request', async (obs) => {
        traceId = obs.traceId;
        for await (const m of query({ prompt: 'Check the shell', options: options({ maxTurns: 6 }) })) types.push(m.type);
      });
      await local.handle.flush();
      // The app saw no stream events: it did not ask for them.
      expect(types).not.toContain('stream_event');
      expect(types.filter((t) => t === 'result').length).toBeGreaterThanOrEqual(1);
      const spans = local.server.spansByTrace(traceId);
      const byName = (n: string) => spans.filter((s) => s.name === n);
      const [root] = byName('claude-agent');
      expect(root).toBeDefined();
      expect(root!.parentSpanId).toBe(byName('request')[0]!.spanId);
      expect(attr(root!, 'type')).toBe('agent');
      expect(attr(root!, 'input')).toBe('Check the shell');
      expect(attr(root!, 'metadata.model')).toBe('claude-stand-in');
      expect(attr(root!, 'metadata.total_cost_usd')).toBeGreaterThan(0);
      expect(attr(root!, 'metadata.num_turns')).toBeGreaterThanOrEqual(1);
      // One generation per Messages API response the SDK yields, each with the stream's final usage.
      // 0.1.0 also calls other models (a summary of a command's output; its subagents default to
      // their own model) and yields nothing of those calls: the stand-in's model marks the turns.
      const generations = spans.filter((s) => attr(s, 'type') === 'generation');
      const turns = standIn.requests.filter((r) => r.model === 'claude-stand-in');
      expect(generations).toHaveLength(turns.length);
      for (const g of generations) {
        expect(attr(g, 'model.name')).toBe('claude-stand-in');
        // The main agent's turns: the stream's final output count. A background subagent's stream
        // events are not forwarded: its turns keep the count the stream started with (1).
        const output = g.parentSpanId === root!.spanId ? FINAL_OUTPUT_TOKENS : 1;
        expect(json(g, 'usage_details')).toEqual({ input: 100, input_cache_read: 50, input_cache_write: 20, output, total: 170 + output });
      }
      const first = generations.find((g) => json(g, 'input')?.[0]?.content === 'Check the shell');
      expect(first).toBeDefined();
      expect(json(first!, 'output')).toEqual({
        role: 'assistant',
        content: 'Running it.',
        tool_calls: [{ id: 'toolu_1', name: 'Bash', args: { command: 'echo hi', description: 'Say hi' } }],
      });
      const [bash] = byName('Bash');
      expect(attr(bash!, 'type')).toBe('tool');
      expect(bash!.parentSpanId).toBe(root!.spanId);
      expect(json(bash!, 'input')).toEqual({ command: 'echo hi', description: 'Say hi' });
      // The tool's structured result where the SDK yields one (`tool_use_result`), else its text.
      if (structuredToolResults) expect(json(bash!, 'output')).toMatchObject({ stdout: 'hi' });
      else expect(attr(bash!, 'output')).toBe('hi');
      const second = generations.find((g) => json(g, 'input')?.[0]?.tool_call_id === 'toolu_1');
      expect(json(second!, 'input')).toEqual([{ role: 'tool', tool_call_id: 'toolu_1', content: 'hi' }]);
      // The subagent: an agent named after its type, its own turn nested under it.
      const [sub] = byName('general-purpose');
      expect(attr(sub!, 'type')).toBe('agent');
      expect(sub!.parentSpanId).toBe(root!.spanId);
      expect(attr(sub!, 'input')).toBe('Count to two');
      expect(attr(sub!, 'output')).toBe('one two');
      // Before 0.3.198 the SDK yields none of a subagent's own turns: nothing to nest under it.
      const subTurns = generations.filter((g) => g.parentSpanId === sub!.spanId);
      expect(subTurns).toHaveLength(subagentTurns ? 1 : 0);
      if (subagentTurns) expect(json(subTurns[0]!, 'output')).toEqual({ role: 'assistant', content: 'one two' });
      for (const s of spans) if (s !== root) expect(attr(s, 'level'), s.name).toBeUndefined();
      expect(JSON.stringify(spans, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('DO-NOT-EXPORT');
    });

    it('outside any observation, stopped by its turn limit: its own trace, level ERROR; stream events the app asked for reach it', async () => {
      const before = new Set(local.server.spans().map((s) => s.spanId));
      const results: unknown[] = [];
      let events = 0;
      const run = async () => {
        for await (const m of query({ prompt: 'Check the shell', options: options({ maxTurns: 1, includePartialMessages: true }) })) {
          if (m.type === 'result') results.push(m.subtype);
          if (m.type === 'stream_event') events++;
        }
      };
      // The SDK (since 0.1.x) throws after the error result: the error reaches the caller unchanged.
      if (throwsAfterErrorResult) await expect(run()).rejects.toThrow(/maximum number of turns/);
      else await run();
      await local.handle.flush();
      expect(results).toEqual(['error_max_turns']);
      expect(events).toBeGreaterThan(0);
      const roots = local.server.spans().filter((s) => !before.has(s.spanId) && s.name === 'claude-agent');
      expect(roots).toHaveLength(1);
      expect(roots[0]!.parentSpanId).toBeUndefined();
      expect(attr(roots[0]!, 'level')).toBe('ERROR');
      const spans = local.server.spansByTrace(roots[0]!.traceId);
      const generations = spans.filter((s) => attr(s, 'type') === 'generation');
      expect(generations).toHaveLength(1);
      expect(json(generations[0]!, 'usage_details')).toMatchObject({ output: FINAL_OUTPUT_TOKENS });
    });
  },
);
