// An agent's tool calls across processes: this process is the MCP client, weather-server.mjs the
// MCP server it starts over stdio. Each `tools/call` is an observation here and one in the server
// process, under it, in the same trace (the viewer names the server's process). One call fails
// (the tool throws: the SDK answers `isError: true`, level ERROR on both sides). Reads OBS_BASE_URL,
// OBS_PUBLIC_KEY and OBS_SECRET_KEY from the environment (the root `npm run demo` sets them).
import { initObs, startActiveObservation } from '@obs/core';
import { obsEnvironment, observeMcpClient } from '@obs/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const obs = initObs();
const client = observeMcpClient(new Client({ name: 'trip-planner', version: '1.0.0' }));
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [new URL('./weather-server.mjs', import.meta.url).pathname],
    // A stdio server gets only a few variables unless `env` says more: obs's settings go with it.
    env: { ...getDefaultEnvironment(), ...obsEnvironment() },
  }),
);

await startActiveObservation('plan-trip', async (trip) => {
  trip.update({ input: { cities: ['Paris', 'Lisbon', 'Atlantis'] } });
  const answers = [];
  for (const city of ['Paris', 'Lisbon', 'Atlantis']) {
    const result = await client.callTool({ name: 'get_weather', arguments: { city } });
    const text = result.content.map((c) => c.text).join('');
    answers.push(result.isError ? `${city}: (tool error) ${text}` : text);
    console.log(`tools/call get_weather ${city} ->${result.isError ? ' isError:' : ''} ${text}`);
  }
  trip.update({ output: answers });
  console.log(`trace ${trip.traceId}`);
});

await client.close(); // the server process flushes its observations as it exits
await obs.shutdown();
console.log('examples/mcp: done (both processes flushed)');
