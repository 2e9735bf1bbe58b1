// An MCP server as a new user writes it, with the packed tarballs installed: `node server.js stdio`
// (its stdin/stdout are the protocol) or `node server.js http` (Streamable HTTP; prints its port,
// ends when its stdin closes). obs starts itself at the first request from the OBS_* variables.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { startObservation } from '@obs/core';
import { observeMcpServer } from '@obs/mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const server = observeMcpServer(new McpServer({ name: 'consumer-weather', version: '1.0.0' }));
server.registerTool('get_weather', { inputSchema: { city: z.string() } }, async ({ city }) => {
  startObservation('forecast', { model: 'forecast-model', input: city, output: `Sunny in ${city}` }, { asType: 'generation' }).end();
  return { content: [{ type: 'text', text: `Sunny in ${city}` }] };
});

if (process.argv[2] === 'http') {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  const http = createServer((req, res) => transport.handleRequest(req, res));
  http.listen(0, '127.0.0.1', () => console.log(`PORT ${http.address().port}`));
  process.stdin.resume();
  process.stdin.on('end', () => {
    http.closeAllConnections();
    http.close();
    process.stdin.pause();
  });
} else {
  await server.connect(new StdioServerTransport());
}
