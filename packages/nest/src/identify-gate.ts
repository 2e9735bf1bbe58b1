import type { IdentifyResult } from '@obs/core';

type Identity = IdentifyResult | undefined | null;
type IdentifyOutcome = Identity | Promise<Identity>;

const noop = (): void => undefined;

/**
 * Holds one request's `identify(req)` until its guards ran.
 *
 * Core runs `identify` lazily, before the first child span starts, so that attributes reach
 * every span. In Nest a middleware or a guard may start a span (an `@Observe` method of an auth
 * service) before the guard that sets `req.user` finished: identify would run too early, once,
 * and miss the user. The gate answers such an early call with a Promise, which it settles by
 * running identify for real when the interceptor (after guards) or the end of the request
 * releases it. Core applies a Promise result when it resolves, so nothing else changes.
 *
 * Generic: belongs in core as a `RequestInit` flag (e.g. `deferIdentify: true` plus
 * `RequestObservation.releaseIdentify()`); see the package README.
 */
export class IdentifyGate {
  private released = false;
  private held?: { promise: Promise<Identity>; resolve: (outcome: IdentifyOutcome) => void };

  constructor(private readonly run: () => IdentifyOutcome) {}

  /** What the observer's `identify` returns: the real result once released, else a held Promise. */
  call(): IdentifyOutcome {
    if (this.released) return this.run();
    if (!this.held) {
      let resolve!: (outcome: IdentifyOutcome) => void;
      const promise = new Promise<Identity>((r) => (resolve = r));
      this.held = { promise, resolve };
    }
    return this.held.promise;
  }

  /**
   * Opens the gate. When an early call was held, runs identify now and returns a Promise that
   * resolves once core applied its attributes; otherwise returns undefined (the caller then
   * runs `RequestObservation.identify()` itself).
   */
  release(): Promise<void> | undefined {
    if (this.released) return undefined;
    this.released = true;
    const held = this.held;
    if (!held) return undefined;
    let outcome: IdentifyOutcome;
    try {
      outcome = this.run();
    } catch (err) {
      outcome = Promise.reject(err);
    }
    held.resolve(outcome);
    // Core attached its handler to the held Promise before this one, so this settles after
    // the attributes were applied.
    return held.promise.then(noop, noop);
  }
}
