/**
 * The sender's parts on their own: the pure retry policy (every verdict of `outcome.ts`, attempts,
 * budget, `Retry-After`, waits cut by a drain's deadline, the exit flush's last round), the
 * account (what waits, what flies, what is left) and the wire (lanes, abort). What they add up to
 * on the wire is covered by the exporter's, the score queue's and the media upload's tests
 * against the local server (export/, faults/, media/).
 */
import { describe, expect, it } from 'vitest';
import { Account } from '../../src/delivery/account.js';
import { MIN_DRAIN_RETRY_MS, nextStep, type RetryPolicy, type RetryState, type Tries } from '../../src/delivery/retry-policy.js';
import { Wire } from '../../src/delivery/wire.js';

const policy: RetryPolicy = { retryBudgetMs: 10_000, backoffMs: 200, maxBackoffMs: 5_000 };
const fresh: RetryState = { failures: 0, refusing: false, deadlines: [] };
const now = 1_000_000;
const at = { now, unit: 'spans', lastRound: false };
const once: Tries = { items: 10, attempts: 1 };

describe('the retry policy', () => {
  it('delivered: done, and the failures and refusals of the line forgotten', () => {
    const [state, step] = nextStep({ kind: 'delivered' }, once, { ...fresh, failures: 4, refusing: true }, policy, at);
    expect(step).toEqual({ next: 'done' });
    expect(state).toMatchObject({ failures: 0, refusing: false });
  });

  it('too large: split while it holds more than one item, dropped with one reason when alone', () => {
    expect(nextStep({ kind: 'too-large', reason: 'HTTP 413' }, once, fresh, policy, at)[1]).toEqual({ next: 'split' });
    const [, alone] = nextStep({ kind: 'too-large', reason: 'HTTP 413' }, { items: 1, attempts: 1 }, fresh, policy, at);
    expect(alone).toMatchObject({ next: 'drop', why: 'the server refused a span as too large even alone (HTTP 413)' });
  });

  it('refused: dropped at once, the line refusing, a hold kept for its time', () => {
    const [state, step] = nextStep({ kind: 'refused', reason: 'bad cert', holdMs: 5_000 }, once, fresh, policy, at);
    expect(step).toEqual({ next: 'drop', reason: 'bad cert', why: 'bad cert' });
    expect(state).toMatchObject({ refusing: true, hold: { until: now + 5_000, why: 'bad cert' } });
  });

  it("retry: the server's Retry-After, else a backoff within [backoff/2, backoff], one more failure counted", () => {
    const [state, step] = nextStep({ kind: 'retry', reason: 'HTTP 429', retryAfterMs: 1_500 }, once, fresh, policy, at);
    expect(step).toEqual({ next: 'retry', reason: 'HTTP 429', waitMs: 1_500, failedSince: now });
    expect(state.failures).toBe(1);
    const [, backoff] = nextStep({ kind: 'retry', reason: 'HTTP 503' }, once, { ...fresh, failures: 2 }, policy, at);
    expect(backoff).toMatchObject({ next: 'retry' });
    const waitMs = (backoff as { waitMs: number }).waitMs;
    expect(waitMs).toBeGreaterThanOrEqual(400);
    expect(waitMs).toBeLessThanOrEqual(800);
  });

  it('retry: never past the budget from the first failure, dropped once it is spent', () => {
    const late: Tries = { items: 10, attempts: 5, failedSince: now - 9_900 };
    const [, step] = nextStep({ kind: 'retry', reason: 'HTTP 503', retryAfterMs: 60_000 }, late, fresh, policy, at);
    expect(step).toMatchObject({ next: 'retry', waitMs: 100 });
    const spent: Tries = { ...late, failedSince: now - 10_000 };
    const [, dropped] = nextStep({ kind: 'retry', reason: 'HTTP 503' }, spent, fresh, policy, at);
    expect(dropped).toEqual({ next: 'drop', reason: 'HTTP 503', why: 'retried for 10 s (HTTP 503)', failing: true });
  });

  it("retry: at most the request's own attempts; one attempt dropped is a loss, not the end of an outage", () => {
    const [, third] = nextStep({ kind: 'retry', reason: 'ECONNRESET' }, { items: 1, attempts: 3, maxAttempts: 3 }, fresh, policy, at);
    expect(third).toEqual({ next: 'drop', reason: 'ECONNRESET', why: 'tried 3 times (ECONNRESET)', failing: true });
    const [, first] = nextStep({ kind: 'retry', reason: 'ECONNRESET' }, { items: 1, attempts: 1, maxAttempts: 1 }, fresh, policy, at);
    expect(first).toEqual({ next: 'drop', reason: 'ECONNRESET', why: 'ECONNRESET', failing: false });
  });

  it('while a drain waits: at most half of what is left before its deadline, never under the floor', () => {
    const draining = { ...fresh, deadlines: [now + 2_000] };
    const [, step] = nextStep({ kind: 'retry', reason: 'HTTP 503', retryAfterMs: 30_000 }, once, draining, policy, at);
    expect(step).toMatchObject({ next: 'retry', waitMs: 1_000 });
    const [, near] = nextStep(
      { kind: 'retry', reason: 'HTTP 503', retryAfterMs: 30_000 },
      once,
      { ...fresh, deadlines: [now + 10] },
      policy,
      at,
    );
    expect(near).toMatchObject({ next: 'retry', waitMs: MIN_DRAIN_RETRY_MS });
  });

  it("the exit flush's last round: nothing retried; a timeout said as possibly arrived", () => {
    const last = { ...at, lastRound: true };
    const [, step] = nextStep({ kind: 'retry', reason: 'timeout', unanswered: true }, once, fresh, policy, last);
    expect(step).toEqual({ next: 'drop', reason: 'timeout', why: 'timeout', unanswered: true });
  });
});

describe('the account', () => {
  it('counts what waits and what flies; a departed request leaves the bound, its items stay pending', () => {
    const account = new Account();
    const limits = { maxBufferItems: 10, maxBufferBytes: 100 };
    account.add(6, 80);
    expect(account.fits(4, 20, limits)).toBe(true);
    expect(account.fits(5, 0, limits)).toBe(false);
    expect(account.fits(0, 21, limits)).toBe(false);
    account.depart(6, 80);
    expect(account.fits(10, 100, limits)).toBe(true);
    expect(account.pending).toBe(6);
    expect(account.left()).toEqual({ unsent: 0, inFlight: 6 });
    account.land(6);
    expect(account.pending).toBe(0);
  });
});

describe('the wire', () => {
  it('counts attempts by lane while they fly, and aborts them all with one reason', async () => {
    const wire = new Wire();
    const signals: AbortSignal[] = [];
    const hang = (signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    };
    const a = wire.send(hang, 'ask');
    const b = wire.send(hang, 'upload');
    expect([wire.busy('ask'), wire.busy('upload'), wire.busy()]).toEqual([1, 1, 2]);
    wire.abort(new Error('the drain ran out of time'));
    const tried = await Promise.all([a, b]);
    expect(tried.map((t) => (t?.error as Error | undefined)?.message)).toEqual(['the drain ran out of time', 'the drain ran out of time']);
    expect(signals[0]).not.toBe(signals[1]);
    expect(wire.busy()).toBe(0);
  });

  it('remembers whether the target ever answered (a name that stops resolving after it did is an outage)', async () => {
    const wire = new Wire();
    const fail = () => Promise.reject(Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }));
    expect((await wire.send(fail, ''))?.reached).toBe(false);
    await wire.send(async () => ({ status: 200, text: '', retryAfter: null }), '');
    expect((await wire.send(fail, ''))?.reached).toBe(true);
    expect(await wire.send(async () => undefined, '')).toBeUndefined();
  });
});
