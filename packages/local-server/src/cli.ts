#!/usr/bin/env node
/**
 * `obs-local-server` (`npx @obs/local-server`): runs the local obs server with its trace viewer,
 * prints the three `OBS_*` lines to paste, and prints every trace as it arrives.
 *
 * Usage: obs-local-server [--port 3100] [--host 127.0.0.1] [--public-key pk] [--secret-key sk] [--quiet]
 */
import { parseArgs } from 'node:util';
import { printTracesAsTheyArrive } from './print-trace.js';
import { startObsServer } from './server.js';

const USAGE = `Usage: obs-local-server [options]

Options:
  --port <n>          port to listen on (default: $OBS_LOCAL_PORT, else 3100 or a free one if 3100 is taken; 0 picks a free one)
  --host <host>       interface to listen on (default: 127.0.0.1)
  --public-key <key>  accepted public key (default: pk-obs-local)
  --secret-key <key>  accepted secret key (default: sk-obs-local)
  --quiet             do not log rejected requests
  -h, --help          show this help`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'public-key': { type: 'string' },
      'secret-key': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const given = values.port ?? process.env['OBS_LOCAL_PORT'];
  const portText = given ?? '3100';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${JSON.stringify(portText)}`);

  const options = {
    ...(values.host !== undefined && { host: values.host }),
    ...(values['public-key'] !== undefined && { publicKey: values['public-key'] }),
    ...(values['secret-key'] !== undefined && { secretKey: values['secret-key'] }),
    ...(values.quiet !== undefined && { quiet: values.quiet }),
  };
  // The default port may be taken (another server, a second terminal): then any free one.
  const server = await startObsServer({ ...options, port }).catch((err: NodeJS.ErrnoException) => {
    if (given !== undefined || err.code !== 'EADDRINUSE') throw err;
    return startObsServer({ ...options, port: 0 });
  });
  console.log(`obs local server listening on ${server.url}

  Trace viewer: ${server.url}/

  Paste into your app's environment:
${Object.entries(server.env)
  .map(([name, value]) => `  ${name}=${value}`)
  .join('\n')}

Traces are printed as they arrive. Ctrl+C to stop.
`);
  const stop = printTracesAsTheyArrive(server, (text) => console.log(`${text}\n`));

  const shutdown = () => {
    stop();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  console.error(`obs-local-server: ${(err as Error)?.message ?? String(err)}\n\n${USAGE}`);
  process.exit(1);
});
