/**
 * What the core tests share around `setupObsServer` (`@obs/local-server/testing`, the one fixture
 * of every package's tests): the keys the server is started with, and the SDK logger routed into
 * an array.
 */
import type { ObsServer } from '@obs/local-server';
import { type LogLevel, setLogger } from '../../src/util/logger.js';

export type { ObsServer };

export interface ServerKeys {
  publicKey: string;
  secretKey: string;
}

/** Keys of the tracing and export tests. */
export const TRACING_KEYS: ServerKeys = { publicKey: 'pk-it', secretKey: 'sk-it-very-secret' };
/** Keys of the client and browser tests (some assert `pk-test` on the wire). */
export const CLIENT_KEYS: ServerKeys = { publicKey: 'pk-test', secretKey: 'sk-test' };

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

/** Empties `lines` and routes the SDK logger into it (threshold `debug`): `setupObsServer({ beforeEach: () => routeLogsInto(logs) })`. */
export function routeLogsInto(lines: LogLine[]): void {
  lines.length = 0;
  routeLogs(lines);
}

function routeLogs(lines: LogLine[]): void {
  const push = (level: LogLevel) => (message: string) => void lines.push({ level, message });
  setLogger({ debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') }, 'debug');
}

export function restoreLogger(): void {
  setLogger(console, 'warn');
}
