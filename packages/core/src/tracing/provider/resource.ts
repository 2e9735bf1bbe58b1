/** The resource of obs's own provider's spans: fixed attributes, nothing detected asynchronously. */
import type { Attributes } from '@opentelemetry/api';
import type { SpanResource } from '../sdk-types.js';

/** A resource with `attributes`, shaped as the SDK's for exporters that read one. */
export function resourceFromAttributes(attributes: Attributes): SpanResource {
  return Object.freeze({
    attributes: Object.freeze({ ...attributes }),
    asyncAttributesPending: false,
    waitForAsyncAttributes: async () => {},
  });
}
