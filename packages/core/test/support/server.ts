/**
 * Set-up shared by the tracing, export, client and browser tests: a real local obs server for
 * the whole test file, and the SDK logger routed into an array.
 *
 * The `*ForFile` helpers are called once at the top of a test file with `await`: they start the
 * server there and register the hooks that reset it between tests and close it at the end.
 */
import { startObsServer, type ObsServer } from '@obs/local-server';
import { afterAll, beforeEach } from 'vitest';
import { setLogger, type LogLevel } from '../../src/logger.js';

export type { ObsServer };

export interface ServerKeys {
  publicKey: string;
  secretKey: string;
}

/** Keys of the tracing and export tests. */
export const TRACING_KEYS: ServerKeys = { publicKey: 'pk-it', secretKey: 'sk-it-very-secret' };
/** Keys of the client and browser tests (some assert `pk-test` on the wire). */
export const CLIENT_KEYS: ServerKeys = { publicKey: 'pk-test', secretKey: 'sk-test' };

export async function startServer(keys: ServerKeys): Promise<ObsServer> {
  return startObsServer({ quiet: true, ...keys });
}

/** Starts a server for this test file, closed after all its tests. */
export async function serverForFile(keys: ServerKeys): Promise<ObsServer> {
  const server = await startServer(keys);
  afterAll(async () => {
    await server.close();
  });
  return server;
}

export interface LogLine {
  level: LogLevel;
  message: string;
}

/** Routes the SDK logger into an array (threshold `debug`); `restoreLogger()` puts console back. */
export function captureLogs(): LogLine[] {
  const lines: LogLine[] = [];
  routeLogs(lines);
  return lines;
}

function routeLogs(lines: LogLine[]): void {
  const push = (level: LogLevel) => (message: string) => void lines.push({ level, message });
  setLogger({ debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') }, 'debug');
}

export function restoreLogger(): void {
  setLogger(console, 'warn');
}

export interface ClientFixture {
  server: ObsServer;
  /** What the SDK logged during the current test (emptied, and the logger re-routed, before each). */
  logs: LogLine[];
}

/** The client and browser tests' set-up: a server reset, and fresh captured logs, before each test. */
export async function clientServerForFile(): Promise<ClientFixture> {
  const server = await serverForFile(CLIENT_KEYS);
  const logs: LogLine[] = [];
  beforeEach(() => {
    server.reset();
    logs.length = 0;
    routeLogs(logs);
  });
  return { server, logs };
}
