/**
 * The front door, in one process over the SDK's own in-memory transport (the wire is the other
 * files' business): the views keep the SDK's classes and leave the objects they wrap unchanged;
 * handlers registered before observing are observed too; the caller's request keeps its own
 * `_meta` while the server receives the trace context; a cancelled call is a WARNING; anything
 * that is not an MCP object is returned as it is with one warning line.
 */
import { setLogger, startActiveObservation } from '@obs/core';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport as InMemoryTransportV2, McpServer as McpServerV2, Server as ServerV2 } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { obsEnvironment, observeMcpClient, observeMcpServer } from '../src/index.js';
import { attr, one, setup } from './support/harness.js';

const { trace } = setup();

const lines: string[] = [];
afterEach(() => {
  setLogger(console, 'warn');
  lines.splice(0);
});
const capture = () =>
  setLogger({ debug: () => {}, info: () => {}, warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) }, 'warn');

async function pairUp(server: { connect(t: never): Promise<void> }, client: { connect(t: never): Promise<void> }) {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b as never);
  await client.connect(a as never);
}

describe('the views', () => {
  it('keep the SDK classes and methods; the wrapped objects are unchanged; observing twice gives the same view', () => {
    const raw = new Client({ name: 'c', version: '1' });
    const client = observeMcpClient(raw);
    expect(client).not.toBe(raw);
    expect(client).toBeInstanceOf(Client);
    expect(client.request).not.toBe(raw.request);
    expect(Object.hasOwn(raw, 'request')).toBe(false);
    expect(observeMcpClient(client)).toBe(client);
    expect(client.request).toBe(client.request);

    const rawServer = new McpServer({ name: 's', version: '1' });
    const innerBefore = rawServer.server;
    const server = observeMcpServer(rawServer);
    expect(server).toBeInstanceOf(McpServer);
    expect(rawServer.server).toBe(innerBefore);
    expect(server.server).not.toBe(innerBefore);
    expect(observeMcpServer(server)).toBe(server);

    const low = new ServerV2({ name: 'low', version: '1' }, { capabilities: { tools: {} } });
    const observedLow = observeMcpServer(low);
    expect(observedLow).toBeInstanceOf(ServerV2);
    expect(Object.keys(low)).toEqual(Object.keys(observedLow));
  });

  it('an object that is not an MCP client or server is returned as it is, with one warning line each', () => {
    capture();
    const thing = { request: 1 };
    expect(observeMcpClient(thing)).toBe(thing);
    expect(observeMcpServer(thing)).toBe(thing);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('observeMcpClient: this is not an MCP client');
    expect(lines[1]).toContain('observeMcpServer: this is not an MCP server');
  });

  it('obsEnvironment() hands on the OBS_* variables only', () => {
    process.env['OBS_TEST_ONLY_SETTING'] = 'x';
    try {
      const env = obsEnvironment();
      expect(env['OBS_TEST_ONLY_SETTING']).toBe('x');
      expect(Object.keys(env).every((k) => k.startsWith('OBS_'))).toBe(true);
    } finally {
      delete process.env['OBS_TEST_ONLY_SETTING'];
    }
  });
});

describe('on an in-memory connection', () => {
  it("handlers registered before observing (an McpServer's capabilities, on 2.x) are observed; the caller's _meta stays its own", async () => {
    let seenMeta: unknown;
    const raw = new McpServerV2({ name: 'early', version: '1' }, { capabilities: { tools: {} } });
    raw.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
      seenMeta = ctx.mcpReq._meta;
      return { content: [{ type: 'text', text }] };
    });
    const server = observeMcpServer(raw);
    const client = observeMcpClient(new ClientV2({ name: 'c', version: '1' }));
    const [a, b] = InMemoryTransportV2.createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    const params = { name: 'echo', arguments: { text: 'hi' }, _meta: { 'com.example/request': 'r-1' } };
    let traceId = '';
    await startActiveObservation('turn', async (root) => {
      traceId = root.traceId;
      await client.callTool(params);
    });
    expect(params._meta).toEqual({ 'com.example/request': 'r-1' });
    expect(seenMeta).toMatchObject({
      'com.example/request': 'r-1',
      traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/),
    });
    const spans = await trace(traceId, 3);
    const calls = spans.filter((s) => s.name === 'tools/call echo');
    const clientCall = calls.find((s) => s.parentSpanId === one(spans, 'turn').spanId)!;
    expect(calls.find((s) => s.parentSpanId === clientCall.spanId)).toBeDefined();
    expect(String(seenMeta && (seenMeta as { traceparent: string }).traceparent)).toContain(clientCall.spanId);
    await client.close();
  });

  it('a call the caller cancels is a WARNING on the client side', async () => {
    const server = observeMcpServer(new McpServer({ name: 's', version: '1' }));
    server.registerTool('slow', { inputSchema: {} }, async () => {
      await new Promise((r) => setTimeout(r, 200));
      return { content: [] };
    });
    const client = observeMcpClient(new Client({ name: 'c', version: '1' }));
    await pairUp(server, client);
    let traceId = '';
    await startActiveObservation('turn', async (root) => {
      traceId = root.traceId;
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('user left')), 20);
      await expect(client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: controller.signal })).rejects.toThrow();
    });
    await new Promise((r) => setTimeout(r, 250));
    const spans = await trace(traceId, 3);
    const clientCall = one(spans, 'tools/call slow', (s) => s.parentSpanId === one(spans, 'turn').spanId);
    expect(attr(clientCall, 'level')).toBe('WARNING');
    expect(String(attr(clientCall, 'status_message'))).toMatch(/^cancelled: /);
    await client.close();
  });
});
