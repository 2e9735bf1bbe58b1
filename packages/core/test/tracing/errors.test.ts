/**
 * Errors inside startActiveObservation and observe (sync throw and rejected Promise): level
 * ERROR, status message, OTel status ERROR (2), an `exception` event, the error rethrown as is.
 */

import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { observe, startActiveObservation, startObservation } from '../../src/index.js';
import { type DecodedSpan, only, sleep, TRACING_KEYS, tracingInit } from './harness.js';

const { server, handle: tracing } = await setupObsServer({ ...TRACING_KEYS, init: tracingInit() }).ready;

class PaymentError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
    this.name = 'PaymentError';
  }
}

function expectErrorRecorded(span: DecodedSpan, message: string, type = 'PaymentError'): void {
  expect(span.attributes['obs.observation.level']).toBe('ERROR');
  expect(span.attributes['obs.observation.status_message']).toBe(message);
  expect(span.status.code).toBe(2);
  expect(span.status.message).toBe(message);
  const exceptions = span.events.filter((e) => e.name === 'exception');
  expect(exceptions).toHaveLength(1);
  expect(exceptions[0]!.attributes['exception.message']).toBe(message);
  expect(exceptions[0]!.attributes['exception.type']).toBe(type);
  // The span was ended (it reached the server) with a real end time.
  expect(span.endTimeUnixNano >= span.startTimeUnixNano).toBe(true);
}

describe('errors in startActiveObservation', () => {
  it('sync throw: recorded and the same error object is rethrown', async () => {
    const err = new PaymentError('card declined', 402);
    let caught: unknown;
    try {
      startActiveObservation('sync-throw', () => {
        throw err;
      });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBe(err);
    await tracing.flush();
    expectErrorRecorded(only(server, 'sync-throw'), 'card declined');
  });

  it('rejected promise: recorded after the rejection and the same error object is rethrown', async () => {
    const err = new PaymentError('insufficient funds', 402);
    const p = startActiveObservation('async-reject', async () => {
      await sleep(2);
      throw err;
    });
    await expect(p).rejects.toBe(err);
    await tracing.flush();
    expectErrorRecorded(only(server, 'async-reject'), 'insufficient funds');
  });

  it('a thrown non-Error value is rethrown unchanged and still recorded', async () => {
    const thrown = { reason: 'weird' };
    await expect(
      startActiveObservation('throw-object', async () => {
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    expect(() =>
      startActiveObservation('throw-string', () => {
        throw 'plain string';
      }),
    ).toThrow('plain string');
    await tracing.flush();
    const obj = only(server, 'throw-object');
    expect(obj.attributes['obs.observation.level']).toBe('ERROR');
    expect(obj.status.code).toBe(2);
    expect(obj.attributes['obs.observation.status_message']).toBe('{"reason":"weird"}');
    expect(obj.events.map((e) => e.name)).toEqual(['exception']);
    const str = only(server, 'throw-string');
    expect(str.attributes['obs.observation.status_message']).toBe('plain string');
    expect(str.status.code).toBe(2);
  });

  it('a failing child does not mark its parent as failed when the parent handles the error', async () => {
    await startActiveObservation('handled-parent', async () => {
      await startActiveObservation('failing-child', async () => {
        throw new PaymentError('child failed', 1);
      }).catch(() => undefined);
    });
    await tracing.flush();
    expectErrorRecorded(only(server, 'failing-child'), 'child failed');
    const parent = only(server, 'handled-parent');
    expect(parent.status.code).toBe(0);
    expect(parent.attributes).not.toHaveProperty('obs.observation.level');
  });

  it('observation.recordError() records the same way without ending', async () => {
    const obs = startObservation('manual-error');
    obs.recordError(new PaymentError('manual', 0));
    obs.update({ output: 'after error' });
    obs.end();
    await tracing.flush();
    const span = only(server, 'manual-error');
    expectErrorRecorded(span, 'manual');
    expect(span.attributes['obs.observation.output']).toBe('after error');
  });
});

describe('errors in observe', () => {
  it('sync throw: recorded and the same error object is rethrown', async () => {
    const err = new PaymentError('sync observe failure', 500);
    const fn = observe(
      function charge(_amount: number): number {
        throw err;
      },
      { asType: 'tool' },
    );
    let caught: unknown;
    try {
      fn(10);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBe(err);
    await tracing.flush();
    const span = only(server, 'charge');
    expectErrorRecorded(span, 'sync observe failure');
    expect(span.attributes['obs.observation.type']).toBe('tool');
    expect(span.attributes['obs.observation.input']).toBe('10');
    expect(span.attributes).not.toHaveProperty('obs.observation.output');
  });

  it('rejected promise: recorded and the same error object is rethrown', async () => {
    const err = new PaymentError('async observe failure', 503);
    const fn = observe(
      async (id: string) => {
        await sleep(2);
        if (id) throw err;
        return 'never';
      },
      { name: 'fetch-user' },
    );
    await expect(fn('u1')).rejects.toBe(err);
    await tracing.flush();
    expectErrorRecorded(only(server, 'fetch-user'), 'async observe failure');
  });
});
