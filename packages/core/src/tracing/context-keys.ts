import { createContextKey } from '@opentelemetry/api';

/** Context slot holding the trace attributes of the enclosing `propagateAttributes` calls. */
export const PROPAGATED_ATTRIBUTES_KEY = createContextKey('obs.propagated_attributes');

/**
 * Context slot set while an obs observation is active: spans started under it (by any tracer)
 * belong to an obs trace, so the default export filter keeps them. Its value is the span context
 * of the enclosing observation (`true` inside `propagateAttributes` alone), so spans under a
 * span obs never saw (another provider's) still find their obs parent.
 */
export const IN_OBS_TRACE_KEY = createContextKey('obs.in_trace');
