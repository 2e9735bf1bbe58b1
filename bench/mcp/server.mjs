// The MCP server of one setup of bench/mcp, a stdio child of its driver: `node server.mjs <setup>`.
// One tool, `lookup`, answering a fixed text, as thin as a tool gets so the MCP path is what costs;
// and `flush`, which the driver calls at the end of a block so the setup's export is inside it.
//   plain: no instrumentation. obs: `observeMcpServer`, obs started from the OBS_* variables.
//   openinference: OpenInference's MCP instrumentation on the SDK's stdio server transport, with an
//   OpenTelemetry NodeTracerProvider registered (its W3C propagator is what extracts).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as serverStdioModule from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const setup = process.argv[2];
let flush = async () => {};
let observe = (server) => server;
if (setup === 'obs') {
  const { initObs } = await import('@obs/core');
  const { observeMcpServer } = await import('@obs/mcp');
  const obs = initObs({ flushOnExit: true });
  flush = () => obs.flush();
  observe = observeMcpServer;
} else if (setup === 'openinference') {
  const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
  const { MCPInstrumentation } = await import('@arizeai/openinference-instrumentation-mcp');
  new NodeTracerProvider().register();
  new MCPInstrumentation().manuallyInstrument({ serverStdioModule });
}

const server = observe(new McpServer({ name: 'bench', version: '1.0.0' }));
// Under OpenInference the call must run in the caller's context, as its instrumentation promises.
const propagated = setup === 'openinference' ? (await import('@opentelemetry/api')).trace : undefined;
server.registerTool('lookup', { inputSchema: { id: z.number() } }, async ({ id }) => {
  if (propagated && !propagated.getActiveSpan()?.spanContext().isRemote) throw new Error('no caller context');
  return { content: [{ type: 'text', text: `record ${id}` }] };
});
server.registerTool('flush', { inputSchema: {} }, async () => {
  await flush();
  return { content: [] };
});
await server.connect(new serverStdioModule.StdioServerTransport());
