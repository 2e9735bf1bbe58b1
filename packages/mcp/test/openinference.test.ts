/**
 * Either side may be traced by OpenInference's MCP instrumentation instead of obs, and the trace
 * still runs through: both read and write the W3C keys `traceparent` / `tracestate` in
 * `params._meta`. (Its own file: OpenInference patches the SDK's transport classes in place.)
 */
import { MCPInstrumentation } from '@arizeai/openinference-instrumentation-mcp';
import { startActiveObservation } from '@obs/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as clientStdioModule from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { observeMcpClient } from '../src/index.js';
import { meta, one, SERVER_SCRIPT, setup, startHttpServer } from './support/harness.js';

const { serverEnv, trace } = setup();

describe('OpenInference on the other side', () => {
  it("a client traced by OpenInference: the obs server's observation hangs under the client's active observation", async () => {
    // Patches StdioClientTransport.prototype.send to inject the active context into params._meta.
    new MCPInstrumentation().manuallyInstrument({ clientStdioModule });
    const client = new Client({ name: 'oi-client', version: '1.0.0' });
    const transport = new clientStdioModule.StdioClientTransport({
      command: process.execPath,
      args: [SERVER_SCRIPT, 'v1', 'stdio', 'obs'],
      env: { ...clientStdioModule.getDefaultEnvironment(), ...serverEnv() },
      stderr: 'pipe',
    });
    await client.connect(transport);
    const pid = transport.pid;
    let traceId = '';
    await startActiveObservation('agent-turn', async (root) => {
      traceId = root.traceId;
      await client.callTool({ name: 'get_weather', arguments: { city: 'Cairo' } });
    });
    await client.close();
    const spans = await trace(traceId, 4);
    const call = one(spans, 'tools/call get_weather');
    expect(call.parentSpanId).toBe(one(spans, 'agent-turn').spanId);
    expect(meta(call, 'process')).toBe(`server.mjs (pid ${pid})`);
    expect(one(spans, 'lookup-city').parentSpanId).toBe(call.spanId);
  });

  it('a server traced by OpenInference: what its tool records hangs under the obs client observation', async () => {
    const server = await startHttpServer('v1', 'http', 'openinference', serverEnv());
    try {
      const client = observeMcpClient(new Client({ name: 'obs-client', version: '1.0.0' }));
      await client.connect(new StreamableHTTPClientTransport(server.url));
      let traceId = '';
      await startActiveObservation('agent-turn', async (root) => {
        traceId = root.traceId;
        await client.callTool({ name: 'get_weather', arguments: { city: 'Doha' } });
      });
      await client.close();
      await server.stop();
      const spans = await trace(traceId, 4);
      const call = one(spans, 'tools/call get_weather');
      expect(call.parentSpanId).toBe(one(spans, 'agent-turn').spanId);
      expect(one(spans, 'lookup-city').parentSpanId).toBe(call.spanId);
    } finally {
      await server.stop();
    }
  });
});
