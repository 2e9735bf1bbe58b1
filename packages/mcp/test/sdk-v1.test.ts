/**
 * `@modelcontextprotocol/sdk` 1.x on the wire: an observed client in this process and an MCP
 * server in a child process, over stdio, Streamable HTTP and the legacy SSE transport. One trace
 * across both processes, each server observation under the client's, what the tool does under
 * the server's; errors on both sides; 100 calls with 10 in flight each parented right; observed
 * and unobserved sides mixed.
 */
import { startActiveObservation } from '@obs/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { observeMcpClient } from '../src/index.js';
import { attr, json, meta, one, pool, SERVER_SCRIPT, setup, startHttpServer } from './support/harness.js';

const { local, serverEnv, trace } = setup();

const newClient = (observed = true) => {
  const client = new Client({ name: 'obs-test', version: '1.0.0' });
  return observed ? observeMcpClient(client) : client;
};

function stdio(mode: 'obs' | 'plain', sdk = 'v1') {
  return new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_SCRIPT, sdk, 'stdio', mode],
    env: { ...getDefaultEnvironment(), ...serverEnv() },
    stderr: 'pipe',
  });
}

/** Collects a stdio server's stderr: an obs warning or @obs/mcp failure there fails the test. */
function stderrOf(transport: StdioClientTransport): () => string {
  let text = '';
  transport.stderr?.on('data', (c: Buffer) => (text += c.toString()));
  return () => text;
}

describe('stdio: the server in a child process', () => {
  it('one trace across both processes; each server observation under the client one; tool work under the server one', async () => {
    const transport = stdio('obs');
    const stderr = stderrOf(transport);
    const client = newClient();
    await client.connect(transport);
    const pid = transport.pid;
    let traceId = '';
    const results: unknown[] = [];
    await startActiveObservation('agent-turn', async (root) => {
      traceId = root.traceId;
      results.push(await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } }));
      results.push(await client.callTool({ name: 'fail', arguments: { city: 'Atlantis' } }));
      results.push((await client.listTools()).tools.map((t) => t.name));
      results.push(await client.readResource({ uri: 'docs://readme' }));
      results.push(await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } }));
    });
    await client.close();
    expect(results[0]).toEqual({ content: [{ type: 'text', text: 'Sunny in Paris' }] });
    expect(results[1]).toMatchObject({ isError: true, content: [{ type: 'text', text: 'no forecast for Atlantis' }] });
    expect(results[2]).toEqual(['get_weather', 'fail']);

    // root + 5 client observations + 5 server observations + the tool's retriever and generation
    const spans = await trace(traceId, 13);
    const root = one(spans, 'agent-turn');
    const side = (s: (typeof spans)[number]) => (meta(s, 'process') === undefined ? 'client' : 'server');
    for (const name of ['tools/call get_weather', 'tools/call fail', 'tools/list', 'resources/read', 'prompts/get greet']) {
      const client = one(spans, name, (s) => side(s) === 'client');
      const server = one(spans, name, (s) => side(s) === 'server');
      expect(client.parentSpanId, name).toBe(root.spanId);
      expect(server.parentSpanId, name).toBe(client.spanId);
      expect(attr(server, 'type'), name).toBe(name.startsWith('tools/call') ? 'tool' : 'span');
      expect(attr(client, 'type'), name).toBe(attr(server, 'type'));
      expect(meta(client, 'server')).toBe('weather 1.2.0');
      expect(meta(server, 'server')).toBe('weather 1.2.0');
      expect(meta(server, 'client')).toBe('obs-test 1.0.0');
      expect(meta(server, 'process')).toBe(`server.mjs (pid ${pid})`);
      expect(meta(server, 'protocolVersion')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(meta(client, 'protocolVersion')).toBe(meta(server, 'protocolVersion'));
      expect(meta(server, 'method')).toBe(name.split(' ')[0]);
    }
    const call = one(spans, 'tools/call get_weather', (s) => side(s) === 'server');
    const lookup = one(spans, 'lookup-city');
    expect(lookup.parentSpanId).toBe(call.spanId);
    expect(attr(lookup, 'type')).toBe('retriever');
    expect(one(spans, 'summarise').parentSpanId).toBe(lookup.spanId);
    expect(attr(one(spans, 'summarise'), 'type')).toBe('generation');
    for (const s of spans.filter((x) => x.name === 'tools/call get_weather')) {
      expect(json(s, 'input')).toEqual({ city: 'Paris' });
      expect(json(s, 'output')).toEqual([{ type: 'text', text: 'Sunny in Paris' }]);
      expect(attr(s, 'level')).toBeUndefined();
    }
    for (const s of spans.filter((x) => x.name === 'tools/call fail')) {
      expect(attr(s, 'level')).toBe('ERROR');
      expect(attr(s, 'status_message')).toBe('no forecast for Atlantis');
    }
    for (const s of spans.filter((x) => x.name === 'resources/read')) {
      expect(json(s, 'input')).toEqual({ uri: 'docs://readme' });
      expect(json(s, 'output')).toEqual([{ uri: 'docs://readme', text: 'Ask for the weather.' }]);
    }
    for (const s of spans.filter((x) => x.name === 'prompts/get greet')) {
      expect(json(s, 'input')).toEqual({ name: 'Ada' });
      expect(json(s, 'output')).toEqual([{ role: 'user', content: { type: 'text', text: 'Greet Ada' } }]);
    }
    expect(local.server.spans()).toHaveLength(13);
    expect(stderr()).not.toMatch(/@obs\/mcp|\[obs\].*(warn|error|fail)/i);
  });

  it("an observed client with an unobserved server: the call works; the client's trace holds the client observation only", async () => {
    const client = newClient();
    await client.connect(stdio('plain'));
    let traceId = '';
    let result: unknown;
    await startActiveObservation('agent-turn', async (root) => {
      traceId = root.traceId;
      result = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    });
    await client.close();
    expect(result).toEqual({ content: [{ type: 'text', text: 'Sunny in Oslo' }] });
    const spans = await trace(traceId, 2);
    expect(one(spans, 'tools/call get_weather').parentSpanId).toBe(one(spans, 'agent-turn').spanId);
    // The unobserved server's own observations (it has OBS_* and obs starts itself at its first
    // observation) are a trace of their own: nothing carried the caller's context into it.
    const others = await local.server.waitFor(() => {
      const s = local.server.spans().filter((span) => span.traceId !== traceId);
      return s.length >= 2 ? s : undefined;
    });
    expect(others.map((s) => s.name).sort()).toEqual(['lookup-city', 'summarise']);
    expect(others[0]!.traceId).toBe(others[1]!.traceId);
    expect(spans).toHaveLength(2);
  });
});

describe('Streamable HTTP: the server in a child process', () => {
  it('100 calls with 10 in flight: each in its own trace, server under client, tool work under server, one session', async () => {
    const server = await startHttpServer('v1', 'http', 'obs', serverEnv());
    const client = newClient();
    try {
      await client.connect(new StreamableHTTPClientTransport(server.url));
      const traces: string[] = [];
      await pool(100, 10, (i) =>
        startActiveObservation(`call-${i}`, async (root) => {
          traces[i] = root.traceId;
          const result = await client.callTool({ name: 'get_weather', arguments: { city: `city-${i}` } });
          expect(result.content).toEqual([{ type: 'text', text: `Sunny in city-${i}` }]);
        }),
      );
      await client.close();
      await server.stop();
      await local.server.waitForSpans(500);
      await new Promise((r) => setTimeout(r, 150));
      expect(local.server.spans()).toHaveLength(500);
      const sessions = new Set<unknown>();
      for (let i = 0; i < 100; i++) {
        const spans = local.server.spansByTrace(traces[i]!);
        expect(spans, `call ${i}`).toHaveLength(5);
        const root = one(spans, `call-${i}`);
        const calls = spans.filter((s) => s.name === 'tools/call get_weather');
        const c = calls.find((s) => s.parentSpanId === root.spanId)!;
        const s = calls.find((x) => x.parentSpanId === c?.spanId)!;
        expect(c, `call ${i}: client under root`).toBeDefined();
        expect(s, `call ${i}: server under client`).toBeDefined();
        expect(json(s, 'input'), `call ${i}`).toEqual({ city: `city-${i}` });
        expect(one(spans, 'lookup-city').parentSpanId, `call ${i}`).toBe(s.spanId);
        expect(attr(one(spans, 'summarise'), 'input'), `call ${i}`).toBe(`city-${i}`);
        sessions.add(meta(c, 'sessionId'));
        sessions.add(meta(s, 'sessionId'));
      }
      expect(sessions.size).toBe(1);
      expect([...sessions][0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(server.stderr).not.toMatch(/@obs\/mcp|\[obs\].*(warn|error|fail)/i);
    } finally {
      await server.stop();
    }
  });

  it('an unobserved client with an observed server: the call works; the server observation starts its own trace', async () => {
    const server = await startHttpServer('v1', 'http', 'obs', serverEnv());
    try {
      const client = newClient(false);
      await client.connect(new StreamableHTTPClientTransport(server.url));
      let rootTrace = '';
      let result: unknown;
      await startActiveObservation('agent-turn', async (root) => {
        rootTrace = root.traceId;
        result = await client.callTool({ name: 'get_weather', arguments: { city: 'Lima' } });
      });
      await client.close();
      await server.stop();
      expect(result).toEqual({ content: [{ type: 'text', text: 'Sunny in Lima' }] });
      await trace(rootTrace, 1);
      const call = await local.server.waitFor(() => local.server.spansByName('tools/call get_weather')[0]);
      expect(call.parentSpanId).toBeUndefined();
      expect(call.traceId).not.toBe(rootTrace);
      const spans = await trace(call.traceId, 3);
      expect(one(spans, 'lookup-city').parentSpanId).toBe(call.spanId);
      expect(local.server.spans()).toHaveLength(4);
    } finally {
      await server.stop();
    }
  });
});

describe('the legacy SSE transport, a low-level Server', () => {
  it('handlers set with setRequestHandler after observing are observed; a JSON-RPC error is ERROR on both sides', async () => {
    const server = await startHttpServer('v1', 'sse', 'obs', serverEnv());
    try {
      const client = newClient();
      await client.connect(new SSEClientTransport(server.url));
      let traceId = '';
      let error: unknown;
      await startActiveObservation('agent-turn', async (root) => {
        traceId = root.traceId;
        await client.callTool({ name: 'get_weather', arguments: { city: 'Rome' } });
        error = await client.callTool({ name: 'nope', arguments: {} }).catch((e: unknown) => e);
      });
      await client.close();
      await server.stop();
      expect(String(error)).toContain('unknown tool nope');
      const spans = await trace(traceId, 7);
      const root = one(spans, 'agent-turn');
      const calls = spans.filter((s) => s.name === 'tools/call get_weather');
      const clientCall = calls.find((s) => s.parentSpanId === root.spanId)!;
      const serverCall = calls.find((s) => s.parentSpanId === clientCall.spanId)!;
      expect(meta(serverCall, 'server')).toBe('weather-low 0.1.0');
      expect(one(spans, 'lookup-city').parentSpanId).toBe(serverCall.spanId);
      const failed = spans.filter((s) => s.name === 'tools/call nope');
      expect(failed).toHaveLength(2);
      const clientFail = failed.find((s) => s.parentSpanId === root.spanId)!;
      expect(failed.find((s) => s.parentSpanId === clientFail.spanId)).toBeDefined();
      for (const s of failed) {
        expect(attr(s, 'level')).toBe('ERROR');
        expect(String(attr(s, 'status_message'))).toContain('unknown tool nope');
      }
    } finally {
      await server.stop();
    }
  });
});
