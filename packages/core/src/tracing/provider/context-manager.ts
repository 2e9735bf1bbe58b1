/**
 * The async context manager obs registers when nothing else did: `AsyncLocalStorage`, as
 * OpenTelemetry's `AsyncLocalStorageContextManager` behaves (functions and event emitters bound to
 * a context run in it), without depending on an SDK line.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';
import { isObject } from '../../util/guards.js';

type Listener = (...args: unknown[]) => unknown;
type Emitter = Record<string, unknown> & { [BOUND]?: Map<unknown, WeakMap<Listener, Listener>> };

const BOUND = Symbol('obs.contextBoundListeners');
const ADDERS = ['addListener', 'on', 'once', 'prependListener', 'prependOnceListener'] as const;
const REMOVERS = ['removeListener', 'off'] as const;

/** Async context on `AsyncLocalStorage`; what obs's provider registers with itself. */
export class ObsContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const callback = thisArg === undefined || thisArg === null ? fn : (fn.bind(thisArg) as F);
    return this.storage.run(context, callback, ...args);
  }

  /** A function that runs `target` in `context`; an event emitter whose listeners do. */
  bind<T>(context: Context, target: T): T {
    if (typeof target === 'function') return this.bindFunction(context, target as unknown as Listener) as T;
    if (isEmitter(target)) this.bindEmitter(context, target);
    return target;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }

  private bindFunction(context: Context, target: Listener): Listener {
    const manager = this;
    const bound = function (this: unknown, ...args: unknown[]) {
      return manager.with(context, () => target.apply(this, args));
    };
    Object.defineProperty(bound, 'length', { value: target.length, configurable: true });
    return bound;
  }

  /**
   * Listeners added from now on run in `context` (the first binding wins); removing one removes
   * its bound copy. `once` adds through `on`, so a listener is bound once.
   */
  private bindEmitter(context: Context, emitter: Emitter): void {
    if (emitter[BOUND]) return;
    const bound = new Map<unknown, WeakMap<Listener, Listener>>();
    emitter[BOUND] = bound;
    let adding = false;
    for (const name of ADDERS) {
      const add = emitter[name];
      if (typeof add !== 'function') continue;
      emitter[name] = (event: unknown, listener: Listener): unknown => {
        if (adding || typeof listener !== 'function') return add.call(emitter, event, listener);
        const copy = this.bindFunction(context, listener);
        let byListener = bound.get(event);
        if (!byListener) bound.set(event, (byListener = new WeakMap()));
        byListener.set(listener, copy);
        adding = true;
        try {
          return add.call(emitter, event, copy);
        } finally {
          adding = false;
        }
      };
    }
    for (const name of REMOVERS) {
      const remove = emitter[name];
      if (typeof remove !== 'function') continue;
      emitter[name] = (event: unknown, listener: Listener): unknown =>
        remove.call(emitter, event, bound.get(event)?.get(listener) ?? listener);
    }
    const removeAll = emitter.removeAllListeners;
    if (typeof removeAll === 'function') {
      emitter.removeAllListeners = (...args: unknown[]): unknown => {
        if (args.length === 0) bound.clear();
        else bound.delete(args[0]);
        return removeAll.apply(emitter, args);
      };
    }
  }
}

function isEmitter(target: unknown): target is Emitter {
  const t = target as Emitter;
  return isObject(t) && typeof t.on === 'function' && typeof t.emit === 'function' && typeof t.removeListener === 'function';
}
