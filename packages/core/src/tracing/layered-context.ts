import type { Context } from '@opentelemetry/api';

/**
 * The key `trace.setSpan` uses: the API makes every context key with `Symbol.for`, so this is
 * the same symbol in every copy of `@opentelemetry/api`.
 */
export const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

/** Past this many layers a context is copied into a flat one, so reads stay short. */
const MAX_DEPTH = 24;

/**
 * A context with a few values over a parent, in one small object. OpenTelemetry's `BaseContext`
 * copies its whole Map and makes three closures on every `setValue`; a request's root sets three
 * values, so that was a dozen allocations per request. Reads walk the layers up to the first
 * non-layered context (the one the app or another tracer made), which answers from its Map.
 */
export class LayeredContext implements Context {
  /** Layers down to the first non-layered context, this one included. */
  readonly depth: number;

  constructor(
    private readonly parent: Context,
    private readonly keys: readonly symbol[],
    private readonly values: readonly unknown[],
  ) {
    this.depth = parent instanceof LayeredContext ? parent.depth + 1 : 1;
  }

  getValue(key: symbol): unknown {
    let ctx: Context = this;
    while (ctx instanceof LayeredContext) {
      const i = ctx.keys.indexOf(key);
      if (i !== -1) return ctx.values[i];
      ctx = ctx.parent;
    }
    return ctx.getValue(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return layer(this, [key], [value]);
  }

  deleteValue(key: symbol): Context {
    return layer(this, [key], [undefined]);
  }

  /** The same values in a flat context: the first non-layered ancestor with every layer applied. */
  flatten(): Context {
    const layers: LayeredContext[] = [];
    let ctx: Context = this;
    while (ctx instanceof LayeredContext) {
      layers.push(ctx);
      ctx = ctx.parent;
    }
    for (let i = layers.length - 1; i >= 0; i--) {
      const { keys, values } = layers[i]!;
      for (let k = 0; k < keys.length; k++) ctx = values[k] === undefined ? ctx.deleteValue(keys[k]!) : ctx.setValue(keys[k]!, values[k]);
    }
    return ctx;
  }
}

/** `parent` with `keys` set to `values` (an undefined value deletes), in one allocation. */
export function layer(parent: Context, keys: readonly symbol[], values: readonly unknown[]): Context {
  const ctx = new LayeredContext(parent, keys, values);
  return ctx.depth > MAX_DEPTH ? ctx.flatten() : ctx;
}
