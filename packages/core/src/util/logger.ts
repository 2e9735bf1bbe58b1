/**
 * The SDK's one logger: every line prefixed `[obs]` (or starting `Obs `), a threshold from
 * `OBS_LOG_LEVEL`/`OBS_DEBUG` (default `warn`), no URL's credentials in any line, and a
 * `notice` level for the few informational lines shown by default (never as warnings).
 */
import { isNodeRuntime } from './runtime.js';
import { redactUrlCredentials } from './url-credentials.js';

/** Log levels, lowest first. `OBS_LOG_LEVEL` (debug, info, warn, error, silent) picks the threshold; `OBS_DEBUG=1` means debug. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

/** Where log lines go; tests and users can swap it with `setLogger`. */
export interface ObsLogger {
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string, ...args: unknown[]): void;
}

function envLevel(): LogLevel {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const v = env?.OBS_LOG_LEVEL?.trim().toLowerCase();
  if (v && v in ORDER) return v as LogLevel;
  // OBS_DEBUG=1 (or true) is the short form of OBS_LOG_LEVEL=debug.
  const debug = env?.OBS_DEBUG?.trim().toLowerCase();
  return debug === '1' || debug === 'true' ? 'debug' : 'warn';
}

let level: LogLevel | undefined;

/**
 * The default sink: the console, but on Node.js, Bun and Deno `debug` and `info` go to stderr as
 * warnings and errors do (`console.info` writes to stdout, where a program's own output is: a
 * stdio MCP server's JSON-RPC, a CLI's result).
 */
const consoleSink: ObsLogger = {
  debug: (m, ...a) => toStderr(m, a) || console.debug(m, ...a),
  info: (m, ...a) => toStderr(m, a) || console.info(m, ...a),
  warn: (m, ...a) => console.warn(m, ...a),
  error: (m, ...a) => console.error(m, ...a),
};

/** Writes a line to Node's stderr; false where there is none (or arguments need the console's formatting). */
function toStderr(m: string, args: unknown[]): boolean {
  const stderr = args.length === 0 ? nodeStderr() : undefined;
  if (!stderr) return false;
  stderr.write(`${m}\n`);
  return true;
}

let sink: ObsLogger = consoleSink;
const onceKeys = new Set<string>();

/** Whether lines of this level are written now (to skip building lines nobody will see). */
export function logLevelEnabled(l: LogLevel): boolean {
  level ??= envLevel();
  return ORDER[l] >= ORDER[level];
}

// Lines already naming obs (the contract's `Obs rejected N of M scores in batch:`) must start
// with their own words, so they get no prefix. No line shows a URL's user name or password,
// whatever error message it quotes.
const prefixed = (m: string) => {
  const line = redactUrlCredentials(m);
  return line.startsWith('Obs ') ? line : `[obs] ${line}`;
};

/** The SDK's logger: every line is prefixed `[obs]` (or starts `Obs `) so it can be grepped out of app logs. */
export const logger: ObsLogger & { warnOnce(key: string, message: string): void; notice(message: string): void } = {
  debug: (m, ...a) => {
    if (logLevelEnabled('debug')) sink.debug(prefixed(m), ...a);
  },
  info: (m, ...a) => {
    if (logLevelEnabled('info')) sink.info(prefixed(m), ...a);
  },
  warn: (m, ...a) => {
    if (logLevelEnabled('warn')) sink.warn(prefixed(m), ...a);
  },
  error: (m, ...a) => {
    if (logLevelEnabled('error')) sink.error(prefixed(m), ...a);
  },
  /**
   * An informational line shown at the default level too (below `error`): obs's start-up line,
   * what a signal's drain sends. On the console it is not a warning (Wrangler shows
   * `console.warn` as `▲ [WARNING]`): on Node.js, Bun and Deno it is written to stderr like every
   * other obs line, never into a program's own output; elsewhere with `console.info`. A custom
   * logger gets it as `info`.
   */
  notice: (m) => {
    if (!logLevelEnabled('warn')) return;
    (sink === console ? consoleSink : sink).info(prefixed(m));
  },
  warnOnce(key, m) {
    if (onceKeys.has(key)) return;
    onceKeys.add(key);
    logger.warn(m);
  },
};

/** `process.stderr` on Node.js, Bun and Deno; undefined elsewhere (edge runtimes, browsers). */
function nodeStderr(): { write(text: string): unknown } | undefined {
  if (!isNodeRuntime()) return undefined;
  try {
    const stderr = (globalThis as { process?: { stderr?: { write?: unknown } } }).process?.stderr;
    return typeof stderr?.write === 'function' ? (stderr as { write(text: string): unknown }) : undefined;
  } catch {
    return undefined;
  }
}

/** Replace where log lines go and, optionally, the threshold. */
export function setLogger(next: ObsLogger, nextLevel?: LogLevel): void {
  sink = next;
  if (nextLevel) level = nextLevel;
}

/** Change the threshold (default `warn`, or `OBS_LOG_LEVEL`). */
export function setLogLevel(next: LogLevel): void {
  level = next;
}
