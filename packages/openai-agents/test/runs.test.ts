/**
 * Agent runs of the real `@openai/agents` against the stand-in OpenAI API, read back from the
 * local obs server field by field: a triage agent that hands off to a writer that calls a tool
 * (plain and streamed, with the Responses model and the Chat Completions model), a run inside an
 * active observation and one outside, a group id as the session, an input guardrail's tripwire,
 * a run interrupted for a tool approval and resumed, and an MCP server's tool.
 */
import { startActiveObservation } from '@obs/core';
import { Agent, type MCPServer, OpenAIChatCompletionsModel, run, tool, withTrace, InputGuardrailTripwireTriggered } from '@openai/agents';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { attr, json, setup } from './harness.js';
import { USAGE_DETAILS } from './stand-in-openai.js';
import { triageAgents } from './triage-agents.js';

const t = setup();

const SCRIPT = [
  { call: 'transfer_to_Writer', args: {} },
  { call: 'weather', args: { city: 'Paris' } },
  { text: 'It is sunny in Paris.' },
] as const;

/** Runs `fn` under a root observation and returns that trace's id. */
async function underRoot(fn: () => Promise<unknown>): Promise<string> {
  let traceId = '';
  await startActiveObservation('request', async (obs) => {
    traceId = obs.traceId;
    await fn();
  });
  return traceId;
}

/** The tree every triage -> writer run makes, checked field by field. */
function expectTriageTree(traceId: string, parentOfWorkflow: string | undefined, usage: Record<string, number> = USAGE_DETAILS) {
  const { spans, one, all } = t.trace(traceId);
  const workflow = one('Agent workflow');
  const triage = one('Triage');
  const writer = one('Writer');
  const handoff = one('handoff Triage -> Writer');
  const tool = one('weather');
  const generations = spans.filter((s) => attr(s, 'type') === 'generation');
  // The workflow, two agents, three model calls, one handoff, one tool (and the caller's root, if any).
  expect(spans).toHaveLength(8 + (parentOfWorkflow ? 1 : 0));
  expect(workflow.parentSpanId).toBe(parentOfWorkflow);
  expect(attr(workflow, 'type')).toBe('agent');
  expect(json(workflow, 'input')).toEqual([{ role: 'user', content: 'Weather in Paris?' }]);
  expect(attr(workflow, 'output')).toBe('It is sunny in Paris.');
  for (const agent of [triage, writer]) {
    expect(attr(agent, 'type')).toBe('agent');
    expect(agent.parentSpanId).toBe(workflow.spanId);
  }
  expect(json(triage, 'metadata.handoffs')).toEqual(['Writer']);
  expect(json(writer, 'metadata.tools')).toEqual(['weather']);
  expect(attr(writer, 'output')).toBe('It is sunny in Paris.');
  // Exactly one generation per model call: one under Triage, two under Writer.
  expect(generations).toHaveLength(3);
  expect(generations.filter((g) => g.parentSpanId === triage.spanId)).toHaveLength(1);
  expect(generations.filter((g) => g.parentSpanId === writer.spanId)).toHaveLength(2);
  for (const g of generations) {
    expect(attr(g, 'model.name')).toBe('gpt-stand-in-2026');
    expect(json(g, 'usage_details')).toEqual(usage);
  }
  const [first, , last] = generations.sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
  expect(json(first!, 'input')).toEqual([
    { role: 'system', content: 'Route the question.' },
    { role: 'user', content: 'Weather in Paris?' },
  ]);
  expect(json(first!, 'output')).toMatchObject({ role: 'assistant', tool_calls: [{ name: 'transfer_to_Writer', args: {} }] });
  expect(json(last!, 'output')).toEqual({ role: 'assistant', content: 'It is sunny in Paris.' });
  expect(json(last!, 'input')).toContainEqual({ role: 'tool', tool_call_id: expect.any(String), content: 'sunny in Paris' });
  expect(handoff.parentSpanId).toBe(triage.spanId);
  expect(attr(handoff, 'metadata.from_agent')).toBe('Triage');
  expect(attr(handoff, 'metadata.to_agent')).toBe('Writer');
  expect(tool.parentSpanId).toBe(writer.spanId);
  expect(attr(tool, 'type')).toBe('tool');
  expect(json(tool, 'input')).toEqual({ city: 'Paris' });
  expect(attr(tool, 'output')).toBe('sunny in Paris');
  for (const s of spans) expect(attr(s, 'level'), s.name).toBeUndefined();
  expect(all('task')).toHaveLength(0);
  // Nothing of the API key reaches obs.
  expect(JSON.stringify(spans, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('DO-NOT-EXPORT');
}

describe('a triage agent handing off to a writer with a tool', () => {
  it('inside an active observation: the run joins its trace, every field read back', async () => {
    t.standIn.script(...SCRIPT);
    const { triage } = triageAgents();
    let root = '';
    const traceId = await underRoot(async () => {
      root = (await import('@opentelemetry/api')).trace.getActiveSpan()!.spanContext().spanId;
      const result = await run(triage, 'Weather in Paris?');
      expect(result.finalOutput).toBe('It is sunny in Paris.');
    });
    await t.settle();
    expect(t.standIn.requests.filter((r) => r.path === '/v1/responses')).toHaveLength(3);
    expectTriageTree(traceId, root);
  });

  it('outside any observation: the run is a trace of its own, named after the workflow', async () => {
    t.standIn.script(...SCRIPT);
    const { triage } = triageAgents();
    await withTrace('Support flow', () => run(triage, 'Weather in Paris?'), { groupId: 'conv-7' });
    await t.settle();
    const roots = t.local.server.spans().filter((s) => s.name === 'Support flow');
    expect(roots).toHaveLength(1);
    expect(roots[0]!.parentSpanId).toBeUndefined();
    const { spans } = t.trace(roots[0]!.traceId);
    expect(spans).toHaveLength(8);
    // The group id links a conversation's runs: obs's session, on every observation of the run.
    for (const s of spans) expect(s.attributes['session.id'], s.name).toBe('conv-7');
  });

  it('streamed: the same tree, ended when the stream is read to its end', async () => {
    t.standIn.script(...SCRIPT);
    const { triage } = triageAgents();
    let root = '';
    const traceId = await underRoot(async () => {
      root = (await import('@opentelemetry/api')).trace.getActiveSpan()!.spanContext().spanId;
      const result = await run(triage, 'Weather in Paris?', { stream: true });
      let text = '';
      for await (const chunk of result.toTextStream()) text += chunk;
      await result.completed;
      expect(text).toBe('It is sunny in Paris.');
    });
    await t.settle();
    expect(t.standIn.requests.map((r) => r.body['stream'])).toEqual([true, true, true]);
    expectTriageTree(traceId, root);
  });

  it('with the Chat Completions model: one generation per completion, its messages and usage', async () => {
    t.standIn.script(...SCRIPT);
    const client = new OpenAI({ apiKey: 'sk-test-DO-NOT-EXPORT', baseURL: t.standIn.baseURL, maxRetries: 0 });
    const { triage } = triageAgents(new OpenAIChatCompletionsModel(client, 'gpt-chat-model'));
    let root = '';
    const traceId = await underRoot(async () => {
      root = (await import('@opentelemetry/api')).trace.getActiveSpan()!.spanContext().spanId;
      await run(triage, 'Weather in Paris?');
    });
    await t.settle();
    expect(t.standIn.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(3);
    expectTriageTree(traceId, root, { input: 20, input_cache_read: 10, output: 12, total: 42 });
  });
});

describe('runs that do not finish plainly', () => {
  it('an input guardrail trips: a guardrail observation with its verdict, the run ends with the error', async () => {
    t.standIn.script({ text: 'never used' });
    const guarded = new Agent({
      name: 'Guarded',
      instructions: 'x',
      inputGuardrails: [{ name: 'no-secrets', execute: async () => ({ outputInfo: { reason: 'secret' }, tripwireTriggered: true }) }],
    });
    const traceId = await underRoot(() =>
      expect(run(guarded, 'my password is hunter2')).rejects.toBeInstanceOf(InputGuardrailTripwireTriggered),
    );
    await t.settle();
    const { one } = t.trace(traceId);
    const guardrail = one('no-secrets');
    expect(attr(guardrail, 'type')).toBe('guardrail');
    expect(json(guardrail, 'output')).toEqual({ triggered: true });
    expect(attr(guardrail, 'level')).toBe('WARNING');
    expect(guardrail.parentSpanId).toBe(one('Guarded').spanId);
    expect(attr(one('Guarded'), 'level')).toBe('ERROR');
    const workflow = one('Agent workflow');
    expect(attr(workflow, 'level')).toBe('ERROR');
    expect(attr(workflow, 'status_message')).toMatch(/InputGuardrailTripwireTriggered/);
    expect(t.standIn.requests).toHaveLength(0);
  });

  it('a run interrupted for a tool approval ends its observations; the resumed run joins the same trace', async () => {
    const remove = tool({
      name: 'delete_record',
      description: 'Deletes a record',
      parameters: z.object({ id: z.string() }),
      needsApproval: true,
      execute: async ({ id }) => `deleted ${id}`,
    });
    const ops = new Agent({ name: 'Ops', instructions: 'x', tools: [remove] });
    t.standIn.script({ call: 'delete_record', args: { id: '7' } }, { text: 'Deleted.' });
    let interrupted = 0;
    const traceId = await underRoot(async () => {
      const first = await run(ops, 'Delete record 7');
      interrupted = first.interruptions.length;
      await t.settle();
      // Before the approval: the first run's observations have all ended.
      const before = t.local.server.spansByTrace((await import('@opentelemetry/api')).trace.getActiveSpan()!.spanContext().traceId);
      expect(before.map((s) => s.name).sort()).toEqual(['Agent workflow', 'Ops', 'response']);
      first.state.approve(first.interruptions[0]!);
      const resumed = await run(ops, first.state);
      expect(resumed.finalOutput).toBe('Deleted.');
    });
    await t.settle();
    expect(interrupted).toBe(1);
    const { spans, one, all } = t.trace(traceId);
    const workflow = one('Agent workflow');
    const agentsSeen = all('Ops');
    expect(agentsSeen).toHaveLength(2);
    for (const a of agentsSeen) expect(a.parentSpanId).toBe(workflow.spanId);
    const del = one('delete_record');
    expect(json(del, 'input')).toEqual({ id: '7' });
    expect(attr(del, 'output')).toBe('deleted 7');
    expect(all('response')).toHaveLength(2);
    expect(spans).toHaveLength(7);
  });
});

describe('MCP tools through the SDK', () => {
  it("an MCP server's tool is a tool observation with the server in its metadata; listing its tools a span", async () => {
    const calls: unknown[] = [];
    const server: MCPServer = {
      name: 'records',
      cacheToolsList: false,
      connect: async () => {},
      close: async () => {},
      invalidateToolsCache: async () => {},
      listTools: async () => [
        {
          name: 'lookup',
          description: 'Looks a record up',
          inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false },
        },
      ],
      callTool: async (name, args) => {
        calls.push({ name, args });
        return [{ type: 'text', text: 'record 7: open' }];
      },
    };
    const agent = new Agent({ name: 'Clerk', instructions: 'x', mcpServers: [server] });
    t.standIn.script({ call: 'lookup', args: { q: '7' } }, { text: 'Record 7 is open.' });
    const traceId = await underRoot(() => run(agent, 'Is record 7 open?'));
    await t.settle();
    expect(calls).toEqual([{ name: 'lookup', args: { q: '7' } }]);
    const { one, all } = t.trace(traceId);
    const lookup = one('lookup');
    expect(attr(lookup, 'type')).toBe('tool');
    expect(lookup.parentSpanId).toBe(one('Clerk').spanId);
    expect(json(lookup, 'input')).toEqual({ q: '7' });
    expect(attr(lookup, 'metadata.mcp.server')).toBe('records');
    // The SDK lists the server's tools before each model call (cacheToolsList: false).
    const lists = all('tools/list records');
    expect(lists).toHaveLength(2);
    for (const list of lists) expect(json(list, 'output')).toEqual(['lookup']);
  });
});
