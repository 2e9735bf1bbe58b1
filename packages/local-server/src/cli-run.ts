/**
 * What `obs-local-server` does, as a function tests can call: parses the options, starts the
 * server, prints where it listens, the viewer's address (with its token when it needs one) and
 * the three `OBS_*` lines, then every trace as it arrives.
 */
import { networkInterfaces } from 'node:os';
import { parseArgs } from 'node:util';
import { defaultDataDir } from './data-dir.js';
import { isLoopbackHost, isWildcardHost } from './http/hosts.js';
import { printTracesAsTheyArrive } from './print-trace.js';
import { startObsServer } from './server.js';
import type { ObsServer, ObsServerOptions } from './types.js';

export const USAGE = `Usage: obs-local-server [options]

Options:
  --port <n>          port to listen on (default: $OBS_LOCAL_PORT, else 3100 or a free one if 3100 is taken; 0 picks a free one)
  --host <host>       interface to listen on (default: this machine's loopback, 127.0.0.1 and ::1); any other
                      address makes the server reachable from the network, and the viewer then needs its token
  --allow-host <name> a host name requests may use besides loopback ones (repeatable; also
                      $OBS_LOCAL_ALLOWED_HOSTS, comma-separated); .example.test allows a domain and its subdomains
  --data <dir>        keep traces, scores, datasets, prompts and media in this directory, across restarts
                      (default: $OBS_LOCAL_DATA, else $XDG_DATA_HOME/obs-local-server or
                      ~/.local/share/obs-local-server; macOS: ~/Library/Application Support/obs-local-server;
                      Windows: %LOCALAPPDATA%\\obs-local-server)
  --memory            keep everything in memory only: gone when the server stops
  --public-key <key>  accepted public key (default: pk-obs-local)
  --secret-key <key>  accepted secret key (default: sk-obs-local)
  --quiet             do not log rejected requests
  -h, --help          show this help`;

/** A running CLI: its server, and what stops printing traces. */
export interface RunningCli {
  server: ObsServer;
  stop(): void;
}

/**
 * Runs the CLI with these arguments; `print` receives each block of output.
 *
 * @returns `undefined` for `--help`
 * @throws Error on invalid options or when the server cannot listen
 */
export async function runCli(
  args: string[],
  env: Record<string, string | undefined>,
  print: (text: string) => void,
): Promise<RunningCli | undefined> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
      'public-key': { type: 'string' },
      'secret-key': { type: 'string' },
      data: { type: 'string' },
      memory: { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    print(USAGE);
    return undefined;
  }
  const given = values.port ?? env['OBS_LOCAL_PORT'];
  const portText = given ?? '3100';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${JSON.stringify(portText)}`);

  if (values.memory && values.data !== undefined) throw new Error('--data and --memory exclude each other');
  const data = values.memory ? undefined : (values.data ?? (env['OBS_LOCAL_DATA'] || undefined));
  const options: ObsServerOptions = {
    ...(values.host !== undefined && { host: values.host }),
    ...(values['allow-host'] !== undefined && { allowedHosts: values['allow-host'] }),
    ...(values['public-key'] !== undefined && { publicKey: values['public-key'] }),
    ...(values['secret-key'] !== undefined && { secretKey: values['secret-key'] }),
    ...(values.quiet !== undefined && { quiet: values.quiet }),
  };
  // The default port may be taken (another server, a second terminal): then any free one.
  const start = (stored: ObsServerOptions) =>
    startObsServer({ ...stored, port }).catch((err: NodeJS.ErrnoException) => {
      if (given !== undefined || err.code !== 'EADDRINUSE') throw err;
      return startObsServer({ ...stored, port: 0 });
    });
  let server: ObsServer;
  if (values.memory || data !== undefined) {
    server = await start({ ...options, ...(data !== undefined && { data }) });
  } else {
    // The default directory is a convenience: when it cannot be used, say so once and keep going in memory.
    const dir = defaultDataDir(env);
    server = await start({ ...options, data: dir }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') throw err;
      console.warn(`[obs-local-server] ${err.message}; keeping traces in memory this time (--data <dir> picks another directory)`);
      return start(options);
    });
  }
  print(startupText(server, values.host));
  return { server, stop: printTracesAsTheyArrive(server, (text) => print(`${text}\n`)) };
}

/** The start-up lines: where it listens and, beyond loopback, that and how the viewer is protected. */
function startupText(server: ObsServer, host: string | undefined): string {
  const env = Object.entries(server.env)
    .map(([name, value]) => `  ${name}=${value}`)
    .join('\n');
  const kept = server.dataFile
    ? `  Data: ${server.dataFile} (kept across restarts; --memory keeps nothing)\n\n`
    : '  Data: in memory, gone when the server stops (--data <dir> keeps it)\n\n';
  const paste = `${kept}  Paste into your app's environment:\n${env}\n\nTraces are printed as they arrive. Ctrl+C to stop.\n`;
  if (host === undefined || isLoopbackHost(host)) {
    return `obs local server listening on ${server.url}\n\n  Trace viewer: ${server.viewerUrl}\n\n${paste}`;
  }
  const bound = `http://${host.includes(':') ? `[${host}]` : host}:${server.port}`;
  const elsewhere = isWildcardHost(host)
    ? ownAddresses().map((a) => server.viewerUrl.replace(server.url, `http://${a}:${server.port}`))
    : [];
  const viewer = [server.viewerUrl, ...elsewhere.filter((u) => u !== server.viewerUrl)];
  return `obs local server listening on ${bound}: reachable from the network

  Trace viewer: ${viewer.join('\n                ')}

  Other machines can reach this server, so the viewer and its reads need the token in the
  address above (the browser keeps it in a cookie once the page is open), or the secret key.
  The public API needs the keys, as always. Requests must name this machine or a host allowed
  with --allow-host / OBS_LOCAL_ALLOWED_HOSTS.

${paste}`;
}

/** This machine's non-loopback addresses, as they go in a URL. */
function ownAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => !a.internal && !(a.family === 'IPv6' && a.address.startsWith('fe80')))
    .map((a) => (a.family === 'IPv6' ? `[${a.address}]` : a.address));
}
