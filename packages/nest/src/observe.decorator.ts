import type { ObservationType, ObsObservationAttributes } from '@obs/core';
import { logger } from '@obs/core/kit';
import { observeMethod } from './observe-method.js';
import { copyOwnMetadata } from './reflect.js';

/** Options of `@Observe()`. */
export interface ObserveMethodOptions {
  /** Observation name; default `ClassName.method`. */
  name?: string;
  /** Observation type (`span`, `generation`, `tool`, `retriever`, ...); default `span`. */
  asType?: ObservationType;
  /** Record the arguments as input (one argument as it is, several as an array); default true. */
  captureInput?: boolean;
  /** Record the result as output (Observables and streams: what they emitted); default true. */
  captureOutput?: boolean;
  /** Attributes set when the observation starts (`model`, `metadata`, ...). */
  attributes?: ObsObservationAttributes;
}

/**
 * Traces a provider (or controller) method: each call is one child observation of whatever
 * is active (the request), active while the method runs, so observations it starts nest under
 * it. Sync results, Promises, RxJS Observables (ends on complete, error or unsubscribe), async
 * generators and ReadableStreams are supported; errors are recorded and rethrown unchanged.
 * Reflect metadata of other decorators on the method (`@Get()`, `@SetMetadata()`, ...) is kept.
 *
 * @example
 * ```ts
 * @Injectable()
 * export class ChatService {
 *   @Observe({ asType: 'generation', attributes: { model: 'gpt-4o' } })
 *   async answer(question: string) { ... }
 * }
 * ```
 */
export function Observe(options: ObserveMethodOptions = {}): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    const original: unknown = descriptor.value;
    if (typeof original !== 'function') {
      logger.warn(`@Observe() ignored on ${String(propertyKey)}: not a method`);
      return descriptor;
    }
    const owner = typeof target === 'function' ? target.name : (target as { constructor?: { name?: string } }).constructor?.name;
    const observed = observeMethod(original as (...args: unknown[]) => unknown, {
      ...options,
      name: options.name ?? (owner ? `${owner}.${String(propertyKey)}` : String(propertyKey)),
    });
    copyOwnMetadata(original, observed);
    Object.defineProperty(observed, 'name', { value: original.name, configurable: true });
    descriptor.value = observed as typeof descriptor.value;
    return descriptor;
  };
}
