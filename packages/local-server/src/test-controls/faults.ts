/**
 * Injected faults: the queue they wait in, and what one does to the request it meets (delay,
 * hold, drop the connection, or answer a status instead of the route).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Answer } from '../http/answer.js';
import type { Fault } from '../types.js';
import type { HeldRequests } from './outages.js';

interface QueuedFault {
  fault: Fault;
  remaining: number;
  /** For `durationMs` faults: when they stop applying. */
  until?: number;
}

/** Faults waiting for matching requests, consumed first-queued first. */
export class FaultQueue {
  private queue: QueuedFault[] = [];

  /** Queues a fault for its next `times` (default 1) matching requests. */
  add(fault: Fault): void {
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new RangeError(`Fault.times must be a positive integer, got ${times}`);
    if (fault.status === undefined && fault.delayMs === undefined && !fault.reset && !fault.hang) {
      throw new TypeError('A fault needs at least one of status, delayMs, reset or hang');
    }
    if (fault.durationMs !== undefined) {
      if (!(fault.durationMs > 0)) throw new RangeError(`Fault.durationMs must be positive, got ${fault.durationMs}`);
      this.queue.push({ fault: { ...fault }, remaining: Infinity, until: Date.now() + fault.durationMs });
      return;
    }
    this.queue.push({ fault: { ...fault }, remaining: times });
  }

  /** Consumes one use of the first fault matching the request's method and path, and returns it. */
  take(method: string, path: string): Fault | undefined {
    const now = Date.now();
    this.queue = this.queue.filter((q) => q.until === undefined || q.until > now);
    const index = this.queue.findIndex(
      (q) => (q.fault.method === undefined || q.fault.method.toUpperCase() === method) && matches(q.fault.path, path),
    );
    if (index < 0) return undefined;
    const q = this.queue[index]!;
    q.remaining -= 1;
    if (q.remaining <= 0) this.queue.splice(index, 1);
    return q.fault;
  }

  /** Number of faults still queued. */
  get size(): number {
    return this.queue.length;
  }

  /** Removes every fault. */
  clear(): void {
    this.queue = [];
  }
}

function matches(pattern: Fault['path'], path: string): boolean {
  if (pattern === undefined) return true;
  if (typeof pattern === 'string') return pattern === path;
  pattern.lastIndex = 0;
  return pattern.test(path);
}

/** What a fault did to a request: answered for the route, dropped the connection, or let it through. */
export type FaultOutcome = { answer: Answer } | 'dropped' | 'continue';

/** Applies a fault to the request it met; `closing` aborts a delay when the server closes. */
export async function applyFault(fault: Fault, held: HeldRequests, closing: AbortSignal): Promise<FaultOutcome> {
  if (fault.delayMs !== undefined && fault.delayMs > 0) {
    try {
      await sleep(fault.delayMs, undefined, { signal: closing });
    } catch {
      return 'dropped'; // the server is closing
    }
  }
  if (fault.hang) await held.hold();
  if (fault.reset || fault.hang) return 'dropped';
  if (fault.status === undefined) return 'continue';
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  return { answer: { status: fault.status, body: fault.body ?? { message: 'injected fault' }, headers } };
}
