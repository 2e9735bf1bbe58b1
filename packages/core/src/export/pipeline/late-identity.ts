/**
 * A request's identity (what an async `identify` resolved to: user, session, tags, metadata)
 * reaches every span of the request, also those started before it resolved: the processor
 * remembers each span's request box at start and merges the box into the span at end and again
 * just before export. A span's own values win; tags are unioned.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '../../tracing/sdk-types.js';
import { ObsAttributes } from '../../tracing/attributes.js';
import type { LateAttributes } from '../../tracing/late-attributes.js';
import { REQUEST_BOX } from '../../tracing/span-slots.js';

type Boxed = { [REQUEST_BOX]?: LateAttributes };

/** Remembers the request box of a span at its start. */
export function rememberRequestBox(span: object, box: LateAttributes | undefined): void {
  if (box) (span as Boxed)[REQUEST_BOX] = box;
}

/** Whether the span's request may still learn its identity (an `identify` not settled yet). */
export function identityPending(span: ReadableSpan): boolean {
  return (span as Boxed)[REQUEST_BOX]?.pending === true;
}

/** Merges the span's request identity into its attributes, if the request has one by now. */
export function applyRequestIdentity(span: ReadableSpan): void {
  const late = (span as Boxed)[REQUEST_BOX]?.attributes;
  if (late) mergeLateAttributes(span.attributes as Attributes, late);
}

/** Adds `late` to `target` where `target` has no value; tags are unioned. */
export function mergeLateAttributes(target: Attributes, late: Attributes): void {
  // `late` is the box's own plain object: for...in walks it without a key array.
  for (const key in late) {
    const value = late[key];
    if (value === undefined) continue;
    const own = target[key];
    if (key === ObsAttributes.TRACE_TAGS && Array.isArray(own) && Array.isArray(value)) {
      const union = [...new Set([...(own as string[]), ...(value as string[])])];
      if (union.length !== own.length) target[key] = union;
      continue;
    }
    if (own === undefined) target[key] = value;
  }
}
