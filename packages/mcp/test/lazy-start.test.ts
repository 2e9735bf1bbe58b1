/**
 * A client and a server observed at import time, before anything started obs (an MCP server
 * module whose only obs line is `observeMcpServer`): the first request starts obs itself
 * (`initObs()` from the OBS_* environment) and both sides' observations arrive.
 */
import { getObsHandle } from '@obs/core';
import { setupObsServer } from '@obs/local-server/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, expect, it } from 'vitest';
import { observeMcpClient, observeMcpServer } from '../src/index.js';

const server = observeMcpServer(new McpServer({ name: 'lazy', version: '1' }));
server.registerTool('ping_me', { inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
const client = observeMcpClient(new Client({ name: 'c', version: '1' }));
const local = setupObsServer();
afterAll(() => getObsHandle()?.shutdown());

it('the first request starts obs from the environment; the client and server observations arrive', async () => {
  const saved = { ...process.env };
  Object.assign(process.env, local.server.env, { OBS_FLUSH_INTERVAL: '0.05' });
  try {
    expect(getObsHandle()).toBeUndefined();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    expect(getObsHandle()).toBeUndefined(); // connecting is lifecycle traffic: nothing started yet
    expect(await client.callTool({ name: 'ping_me', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'pong' }] });
    expect(getObsHandle()).toBeDefined();
    await getObsHandle()!.flush();
    const spans = await local.server.waitForSpans(2);
    expect(spans.map((s) => s.name)).toEqual(['tools/call ping_me', 'tools/call ping_me']);
    expect(spans[0]!.traceId).toBe(spans[1]!.traceId);
    await client.close();
  } finally {
    process.env = saved;
  }
});
