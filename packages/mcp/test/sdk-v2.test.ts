/**
 * The 2.x split packages (`@modelcontextprotocol/client`, `@modelcontextprotocol/server`, the
 * 2026-07-28 protocol) on the wire, servers built per connection or per request by the factories
 * `serveStdio` and `createMcpHandler` take; a 1.x client against a 2.x server; and the 1.x floor
 * the peer range allows (`@modelcontextprotocol/sdk` 1.10, low-level `Server` and `Client`).
 */
import { startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientFloor } from 'mcp-sdk-floor/client/index.js';
import { StdioClientTransport as StdioClientTransportFloor } from 'mcp-sdk-floor/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { observeMcpClient } from '../src/index.js';
import { attr, json, meta, one, SERVER_SCRIPT, setup, startHttpServer } from './support/harness.js';

const { local, serverEnv, trace } = setup();

/** The client observation under `root` and the server observation under it, for `name`. */
function pair(spans: DecodedSpan[], name: string, root: DecodedSpan) {
  const calls = spans.filter((s) => s.name === name);
  const client = calls.find((s) => s.parentSpanId === root.spanId);
  const server = calls.find((s) => client && s.parentSpanId === client.spanId);
  expect(client, `${name}: client observation under the root`).toBeDefined();
  expect(server, `${name}: server observation under the client one`).toBeDefined();
  return { client: client!, server: server! };
}

const stdioArgs = (sdk: string) => ({
  command: process.execPath,
  args: [SERVER_SCRIPT, sdk, 'stdio', 'obs'],
  env: { ...getDefaultEnvironment(), ...serverEnv() },
  stderr: 'pipe' as const,
});

describe('@modelcontextprotocol/client and /server 2.x', () => {
  it('stdio (serveStdio): one trace, the server observation under the client one, the tool work under it; isError is ERROR', async () => {
    const client = observeMcpClient(new Client({ name: 'obs-test', version: '2.0.0' }));
    await client.connect(new StdioClientTransport(stdioArgs('v2')));
    let traceId = '';
    let fail: unknown;
    await startActiveObservation('agent-turn', async (root) => {
      traceId = root.traceId;
      const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Kyoto' } });
      expect(result.content).toEqual([{ type: 'text', text: 'Sunny in Kyoto' }]);
      fail = await client.callTool({ name: 'fail', arguments: { city: 'Atlantis' } });
    });
    await client.close();
    expect(fail).toMatchObject({ isError: true });
    const spans = await trace(traceId, 7);
    const root = one(spans, 'agent-turn');
    const { client: c, server: s } = pair(spans, 'tools/call get_weather', root);
    expect(one(spans, 'lookup-city').parentSpanId).toBe(s.spanId);
    expect(json(s, 'input')).toEqual({ city: 'Kyoto' });
    expect(json(c, 'output')).toEqual([{ type: 'text', text: 'Sunny in Kyoto' }]);
    expect(meta(s, 'server')).toBe('weather 1.2.0');
    expect(meta(s, 'protocolVersion')).toBe(meta(c, 'protocolVersion'));
    expect(meta(s, 'protocolVersion')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const failed = pair(spans, 'tools/call fail', root);
    for (const x of [failed.client, failed.server]) {
      expect(attr(x, 'level')).toBe('ERROR');
      expect(attr(x, 'status_message')).toBe('no forecast for Atlantis');
    }
  });

  it('Streamable HTTP (createMcpHandler, a server per request): parented on the 2026-07-28 protocol', async () => {
    const server = await startHttpServer('v2', 'http', 'obs', serverEnv());
    try {
      // The 2026-07-28 protocol is opt-in on a 2.x client ('legacy' is its default mode).
      const client = observeMcpClient(new Client({ name: 'obs-test', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } }));
      await client.connect(new StreamableHTTPClientTransport(server.url));
      let traceId = '';
      await startActiveObservation('agent-turn', async (root) => {
        traceId = root.traceId;
        const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Quito' } });
        expect(result.content).toEqual([{ type: 'text', text: 'Sunny in Quito' }]);
        expect((await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } })).messages).toHaveLength(1);
      });
      await client.close();
      await server.stop();
      const spans = await trace(traceId, 7);
      const root = one(spans, 'agent-turn');
      const { client: c, server: s } = pair(spans, 'tools/call get_weather', root);
      expect(one(spans, 'lookup-city').parentSpanId).toBe(s.spanId);
      expect(meta(c, 'protocolVersion')).toBe('2026-07-28');
      expect(meta(s, 'protocolVersion')).toBe('2026-07-28');
      expect(meta(s, 'process')).toBe(`server.mjs (pid ${server.pid})`);
      pair(spans, 'prompts/get greet', root);
      expect(server.stderr).not.toMatch(/@obs\/mcp|\[obs\].*(warn|error|fail)/i);
    } finally {
      await server.stop();
    }
  });

  it('a 1.x client against a 2.x server (stdio): one trace, parented', async () => {
    const client = observeMcpClient(new ClientV1({ name: 'obs-test', version: '1.0.0' }));
    await client.connect(new StdioClientTransportV1(stdioArgs('v2')));
    let traceId = '';
    await startActiveObservation('agent-turn', async (root) => {
      traceId = root.traceId;
      await client.callTool({ name: 'get_weather', arguments: { city: 'Accra' } });
    });
    await client.close();
    const spans = await trace(traceId, 5);
    const { server: s } = pair(spans, 'tools/call get_weather', one(spans, 'agent-turn'));
    expect(meta(s, 'client')).toBe('obs-test 1.0.0');
  });
});

describe('the floor of the peer range, @modelcontextprotocol/sdk 1.10', () => {
  it('a low-level Client and Server over stdio: one trace, parented, protocol version on both sides', async () => {
    const client = observeMcpClient(new ClientFloor({ name: 'obs-test', version: '1.0.0' }));
    await client.connect(new StdioClientTransportFloor(stdioArgs('floor')));
    let traceId = '';
    await startActiveObservation('agent-turn', async (root) => {
      traceId = root.traceId;
      const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Lagos' } });
      expect(result.content).toEqual([{ type: 'text', text: 'Sunny in Lagos' }]);
      await client.listTools();
    });
    await client.close();
    const spans = await trace(traceId, 7);
    const root = one(spans, 'agent-turn');
    const { client: c, server: s } = pair(spans, 'tools/call get_weather', root);
    pair(spans, 'tools/list', root);
    expect(one(spans, 'lookup-city').parentSpanId).toBe(s.spanId);
    expect(meta(s, 'server')).toBe('weather-low 0.1.0');
    expect(meta(s, 'protocolVersion')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(meta(c, 'protocolVersion')).toBe(meta(s, 'protocolVersion'));
    expect(local.server.spans()).toHaveLength(7);
  });
});
