/**
 * What `obs-local-server` does, as a function tests can call: parses the options, starts the
 * server, prints where it listens, the viewer's address (with its token when it needs one) and
 * the three `OBS_*` lines, then every trace as it arrives.
 */
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { parseArgs } from 'node:util';
import { defaultDataDir } from './data-dir.js';
import { isLoopbackHost, isWildcardHost } from './http/hosts.js';
import { type ModelPrice, parsePriceTable } from './model/cost.js';
import { printTracesAsTheyArrive } from './print-trace.js';
import { DEFAULT_MAX_SIZE_MB } from './retention/policy.js';
import { startObsServer } from './server.js';
import { DataDirectoryError } from './stores/open.js';
import { escapeControls } from './text/terminal.js';
import type { ObsServer, ObsServerOptions } from './types.js';

export const USAGE = `Usage: obs-local-server [options]

Options:
  --port <n>          port to listen on (default: $OBS_LOCAL_PORT, else 3100 or a free one if 3100 is taken; 0 picks a free one)
  --host <host>       interface to listen on (default: this machine's loopback, 127.0.0.1 and ::1); any other
                      address makes the server reachable from the network: the viewer then needs its token, and
                      keys not given are made at random (the published defaults are refused)
  --allow-host <name> a host name requests may use besides loopback ones (repeatable; also
                      $OBS_LOCAL_ALLOWED_HOSTS, comma-separated); .example.test allows a domain and its subdomains
  --data <dir>        keep traces, scores, datasets, prompts and media in this directory, across restarts
                      (default: $OBS_LOCAL_DATA, else $XDG_DATA_HOME/obs-local-server or
                      ~/.local/share/obs-local-server; macOS: ~/Library/Application Support/obs-local-server;
                      Windows: %LOCALAPPDATA%\\obs-local-server)
  --memory            keep everything in memory only: gone when the server stops
  --retain <days>     delete traces that started more than this many days ago (default: keep them)
  --max-size <MB>     keep the data file under this size, deleting the oldest traces first
                      (default: ${DEFAULT_MAX_SIZE_MB}; 0 for no limit)
  --prices <file>     model prices (JSON) that add to or override the bundled price table
  --public-key <key>  accepted public key (default on loopback: pk-obs-local)
  --secret-key <key>  accepted secret key (default on loopback: sk-obs-local)
  --quiet             do not log rejected requests
  -h, --help          show this help`;

/** A mistake in the command line: said with the usage text. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A running CLI: its server, and what stops printing traces. */
export interface RunningCli {
  server: ObsServer;
  stop(): void;
}

/**
 * Runs the CLI with these arguments; `print` receives each block of output.
 *
 * @returns `undefined` for `--help`
 * @throws UsageError on invalid options; Error when the server cannot start (its data directory,
 *   its port, its keys, a price file)
 */
export async function runCli(
  args: string[],
  env: Record<string, string | undefined>,
  print: (text: string) => void,
): Promise<RunningCli | undefined> {
  let values: ReturnType<typeof parseOptions>;
  try {
    values = parseOptions(args);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) {
    print(USAGE);
    return undefined;
  }
  const given = values.port ?? env['OBS_LOCAL_PORT'];
  const portText = given ?? '3100';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`invalid port ${JSON.stringify(portText)}`);

  if (values.memory && values.data !== undefined) throw new UsageError('--data and --memory exclude each other');
  const data = values.memory ? undefined : (values.data ?? (env['OBS_LOCAL_DATA'] || undefined));
  const retain = values.retain === undefined ? undefined : positive('--retain', values.retain, 'days');
  const maxSizeMb = values['max-size'] === undefined ? undefined : positive('--max-size', values['max-size'], 'MB', true);
  const options: ObsServerOptions = {
    record: false,
    ...(values.host !== undefined && { host: values.host }),
    ...(values['allow-host'] !== undefined && { allowedHosts: values['allow-host'] }),
    ...(values['public-key'] !== undefined && { publicKey: values['public-key'] }),
    ...(values['secret-key'] !== undefined && { secretKey: values['secret-key'] }),
    ...(values.quiet !== undefined && { quiet: values.quiet }),
    ...(values.prices !== undefined && { prices: readPriceFile(values.prices) }),
    ...((retain !== undefined || maxSizeMb !== undefined) && {
      retention: { ...(retain !== undefined && { days: retain }), ...(maxSizeMb !== undefined && { maxSizeMb }) },
    }),
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
    server = await start({ ...options, data: dir }).catch((err: unknown) => {
      if (!(err instanceof DataDirectoryError)) throw err;
      console.warn(
        `[obs-local-server] ${escapeControls(err.message)}; keeping traces in memory this time (--data <dir> picks another directory)`,
      );
      return start(options);
    });
  }
  print(startupText(server, values.host, options));
  return { server, stop: printTracesAsTheyArrive(server, (text) => print(`${text}\n`)) };
}

function parseOptions(args: string[]) {
  return parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
      'public-key': { type: 'string' },
      'secret-key': { type: 'string' },
      data: { type: 'string' },
      memory: { type: 'boolean' },
      retain: { type: 'string' },
      'max-size': { type: 'string' },
      prices: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
}

/** A positive number of days or megabytes (`0` too where it means "no limit"). */
function positive(flag: string, text: string, unit: string, zero = false): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || (n === 0 && !zero)) {
    throw new UsageError(`${flag} takes a ${zero ? 'non-negative' : 'positive'} number of ${unit}, got ${JSON.stringify(text)}`);
  }
  return n;
}

/** The model prices of a `--prices` file. */
function readPriceFile(file: string): ModelPrice[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--prices ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return parsePriceTable(JSON.parse(text));
  } catch (err) {
    throw new UsageError(`--prices ${file}: ${(err as Error).message}`);
  }
}

/** The start-up lines: where it listens and, beyond loopback, that and how the viewer is protected. */
function startupText(server: ObsServer, host: string | undefined, options: ObsServerOptions): string {
  const env = Object.entries(server.env)
    .map(([name, value]) => `  ${name}=${escapeControls(value)}`)
    .join('\n');
  const made =
    host !== undefined && !isLoopbackHost(host) && (options.publicKey === undefined || options.secretKey === undefined)
      ? '\n  (keys made at random for this start: --public-key and --secret-key keep them across restarts)'
      : '';
  const kept = server.dataFile
    ? `  Data: ${escapeControls(server.dataFile)} (kept across restarts; ${keeping(options)}; --memory keeps nothing)\n\n`
    : '  Data: in memory, gone when the server stops (--data <dir> keeps it)\n\n';
  const paste = `${kept}  Paste into your app's environment:\n${env}${made}\n\nTraces are printed as they arrive. Ctrl+C to stop.\n`;
  if (host === undefined || isLoopbackHost(host)) {
    return `obs local server listening on ${server.url}\n\n  Trace viewer: ${server.viewerUrl}\n\n${paste}`;
  }
  const shown = escapeControls(host);
  const bound = `http://${shown.includes(':') ? `[${shown}]` : shown}:${server.port}`;
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

/** What retention keeps, in the start-up lines' words. */
function keeping(options: ObsServerOptions): string {
  const { days, maxSizeMb = DEFAULT_MAX_SIZE_MB } = options.retention ?? {};
  const size = maxSizeMb > 0 ? `the oldest traces go past ${maxSizeMb} MB` : 'no size limit';
  return days !== undefined ? `${size}, and after ${days} day${days === 1 ? '' : 's'}` : size;
}
