// An MCP tool server, started by demo.mjs as its own process over stdio. `observeMcpServer` is its
// only obs line: obs starts at the first request, from the OBS_* variables the client passed in
// `env`, and each tool call continues the client's trace (its `traceparent` in `params._meta`).
import { startActiveObservation, startObservation } from '@obs/core';
import { observeMcpServer } from '@obs/mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const FORECASTS = { Paris: 'light rain, 14°C', Lisbon: 'sunny, 24°C' };

const server = observeMcpServer(new McpServer({ name: 'weather', version: '1.0.0' }));
server.registerTool(
  'get_weather',
  { description: "A city's forecast for tomorrow", inputSchema: { city: z.string() } },
  async ({ city }) => {
    // What the tool does nests under the server's observation: a lookup, then a (stand-in) model.
    const forecast = await startActiveObservation(
      'forecast-db',
      async (lookup) => {
        const found = FORECASTS[city];
        lookup.update({ input: { city }, output: found ? [found] : [] });
        return found;
      },
      { asType: 'retriever' },
    );
    if (!forecast) throw new Error(`no forecast for ${city}`);
    const text = `Tomorrow in ${city}: ${forecast}.`;
    startObservation('phrase-forecast', { model: 'demo-model', input: forecast, output: text }, { asType: 'generation' }).end();
    return { content: [{ type: 'text', text }] };
  },
);
await server.connect(new StdioServerTransport());
