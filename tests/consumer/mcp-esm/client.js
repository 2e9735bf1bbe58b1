// An MCP client as a new user writes it, with the packed tarballs installed: it calls a tool of
// `server.js` started as another process, once over stdio and 100 times over Streamable HTTP with
// 10 in flight, each call under an observation of its own. Prints the trace ids.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { initObs, startActiveObservation } from '@obs/core';
import { obsEnvironment, observeMcpClient } from '@obs/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const obs = initObs();
const call = async (client, name, city) =>
  startActiveObservation(name, async (root) => {
    const result = await client.callTool({ name: 'get_weather', arguments: { city } });
    if (result.content[0].text !== `Sunny in ${city}`) throw new Error(`unexpected answer ${JSON.stringify(result)}`);
    return root.traceId;
  });

// stdio: the SDK passes a server process only a few variables unless `env` says more.
const stdio = observeMcpClient(new Client({ name: 'consumer-agent', version: '1.0.0' }));
await stdio.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: ['server.js', 'stdio'],
    env: { ...getDefaultEnvironment(), ...obsEnvironment() },
  }),
);
const stdioTrace = await call(stdio, 'stdio-call', 'Paris');
await stdio.close();

// Streamable HTTP: the server inherits this environment.
const child = spawn(process.execPath, ['server.js', 'http'], { stdio: ['pipe', 'pipe', 'inherit'] });
const [line] = await once(child.stdout, 'data');
const port = /PORT (\d+)/.exec(String(line))[1];
const http = observeMcpClient(new Client({ name: 'consumer-agent', version: '1.0.0' }));
await http.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
const httpTraces = [];
let next = 0;
await Promise.all(
  Array.from({ length: 10 }, async () => {
    while (next < 100) {
      const i = next++;
      httpTraces[i] = await call(http, `http-call-${i}`, `city-${i}`);
    }
  }),
);
await http.close();
const exited = once(child, 'exit');
child.stdin.end();
await exited;
await obs.shutdown();
console.log(`RESULT ${JSON.stringify({ traceId: stdioTrace, body: { answered: 101 }, httpTraces })}`);
