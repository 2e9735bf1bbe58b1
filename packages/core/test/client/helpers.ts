import type { ObsServer } from '@obs/local-server';
import { ObsClient } from '../../src/client/client.js';
import type { ObsClientOptions } from '../../src/client/options.js';
import type { LogLevel } from '../../src/util/logger.js';
import type { LogLine } from '../support/server.js';

export type { LogLine } from '../support/server.js';

/** Strips the logger's `[obs] ` prefix so assertions read like the contract. */
export function messages(lines: LogLine[], level?: LogLevel): string[] {
  return lines.filter((l) => level === undefined || l.level === level).map((l) => l.message.replace(/^\[obs\] /, ''));
}

/** A client on `server` with millisecond backoff so retry tests stay fast. */
export function clientFor(server: ObsServer, options: ObsClientOptions = {}): ObsClient {
  return new ObsClient({
    publicKey: server.publicKey,
    secretKey: server.secretKey,
    baseUrl: server.url,
    backoff: { initialDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });
}

/** A `fetch` that records when each request left, to measure waits between attempts. */
export function timedFetch(): { fetch: typeof fetch; sentAt: Array<{ url: string; at: number }> } {
  const sentAt: Array<{ url: string; at: number }> = [];
  const wrapped: typeof fetch = (input, init) => {
    sentAt.push({ url: String(input), at: Date.now() });
    return fetch(input, init);
  };
  return { fetch: wrapped, sentAt };
}

export const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
export const SPAN_ID = 'b7ad6b7169203331';
