import { createContextKey, type Attributes, type Context } from '@opentelemetry/api';

/** Context slot of a request's late-bound trace attributes. */
export const LATE_ATTRIBUTES_KEY = createContextKey('obs.late_attributes');

/**
 * Trace attributes known only after a request started (e.g. `identify(req)` seeing what auth
 * middleware put on `req`). The context holds this mutable box, so spans started after the
 * attributes arrive carry them, whenever that was.
 */
export class LateAttributes {
  attributes: Attributes | undefined;
  /**
   * Whether more attributes may still come (a request's `identify` not run or not resolved yet):
   * the processor keeps the request's ended spans as objects until it is false, so they get them.
   */
  pending = false;
  /** Runs before the attributes are read, so a lazy producer (a request's `identify`) can run first. */
  ensure: { produce(): void } | undefined;

  /** Adds attributes (later values win). */
  set(attributes: Attributes): void {
    this.attributes = this.attributes ? { ...this.attributes, ...attributes } : attributes;
  }

  /** Reads the attributes, running the lazy producer once if there is one. */
  read(): Attributes | undefined {
    const ensure = this.ensure;
    if (ensure) {
      this.ensure = undefined;
      ensure.produce();
    }
    return this.attributes;
  }
}

/** The late attributes box of `ctx`, if it is inside a request. */
export function lateAttributesOf(ctx: Context): LateAttributes | undefined {
  return ctx.getValue(LATE_ATTRIBUTES_KEY) as LateAttributes | undefined;
}
