/**
 * One obs tree whatever else traces the app. Framework instrumentations (OpenTelemetry http,
 * express, nest, fastify; Sentry; Next.js; `@vercel/otel`) wrap the obs request root and sit
 * between obs observations (`request handler`, `middleware - …`). obs does not export them by
 * default, so at export an obs span whose parent is a span obs does not export is re-parented to
 * its nearest exported ancestor, or becomes a root (the request root) with a link to the foreign
 * parent it had. With `frameworkSpans: 'export'` framework spans are exported too, but they are
 * still never the parents of obs spans: they keep their own parents and obs spans are linked to
 * them. The app's own exporters see the spans unchanged: obs exports a view, not the span.
 *
 * Each span learns at start, from its parent span object, the nearest ancestor obs exports; no
 * map, so nothing to clean up.
 */
import { trace, type Context, type Link, type SpanContext } from '@opentelemetry/api';
import type { ReadableSpan } from '../../tracing/sdk-types.js';
import { IN_OBS_TRACE_KEY } from '../../tracing/context-keys.js';
import { EXPORT_PARENT, NEAREST_ANY, NEAREST_OBS, OBS_PARENT } from '../../tracing/span-slots.js';
import { isFrameworkScope } from '../../tracing/scopes.js';

/** Whether framework spans are left out of obs (`skip`, default) or exported alongside it (`export`). */
export type FrameworkSpansMode = 'skip' | 'export';

type Nearest = SpanContext | null;
interface Tagged {
  [NEAREST_OBS]?: Nearest;
  [NEAREST_ANY]?: Nearest;
  [EXPORT_PARENT]?: Nearest;
  [OBS_PARENT]?: Nearest;
}

/** Attribute on a link obs adds from a re-parented span to the foreign parent it had. */
export const FOREIGN_PARENT_LINK_ATTRIBUTE = 'obs.link.foreign_parent';

/**
 * Records, at span start, where the span hangs in the obs tree. `exportsAsObs` says whether the
 * span is expected to be exported as an obs node (obs scope, LLM scope, or inside an observation).
 */
export function rememberExportParents(
  span: ReadableSpan & object,
  parentContext: Context,
  exportsAsObs: boolean,
  mode: FrameworkSpansMode,
): void {
  const self = span as Tagged;
  const parent = trace.getSpan(parentContext);
  let obs: Nearest = null;
  let any: Nearest = null;
  if (parent) {
    const p = parent as Tagged;
    if (p[NEAREST_OBS] !== undefined || p[NEAREST_ANY] !== undefined) {
      obs = p[NEAREST_OBS] ?? null;
      any = p[NEAREST_ANY] ?? null;
    } else if (parent.spanContext().isRemote || !parent.isRecording()) {
      // An upstream service's span (incoming traceparent) or a parent given by its span context
      // (`startObservation(..., { parentSpanContext })`): obs keeps it as given.
      obs = any = parent.spanContext();
    } else {
      // A span this processor never saw (another provider's, e.g. Sentry's while obs runs
      // isolated): it never reaches obs, so hang on the enclosing observation, else be a root.
      const enclosing = parentContext.getValue(IN_OBS_TRACE_KEY);
      if (typeof enclosing === 'object' && enclosing !== null) obs = any = enclosing as SpanContext;
    }
  }
  const framework = isFrameworkScope(span.instrumentationScope?.name ?? '');
  // Framework spans keep their own parents; obs spans hang on the nearest obs span.
  self[EXPORT_PARENT] = framework ? any : obs;
  const own = span.spanContext();
  if (exportsAsObs && !framework) {
    self[NEAREST_OBS] = own;
    self[NEAREST_ANY] = own;
  } else {
    // Framework instrumentations pick their own parents (Express hangs every layer on the HTTP
    // span), so what runs inside one hangs on the observation active where it started.
    const enclosing = framework ? parentContext.getValue(IN_OBS_TRACE_KEY) : undefined;
    self[NEAREST_OBS] = typeof enclosing === 'object' && enclosing !== null ? (enclosing as SpanContext) : obs;
    self[NEAREST_ANY] = framework && mode === 'export' ? own : any;
  }
}

/**
 * The span as obs exports it: with its parent moved to the nearest exported ancestor and a link
 * to the foreign parent it skipped. The span itself is returned when nothing changes.
 */
export function shapeForExport(span: ReadableSpan): ReadableSpan {
  const tagged = span as Tagged;
  const target = tagged[EXPORT_PARENT];
  if (target === undefined) return span;
  // The parent the span had before obs re-pointed it for the app's own backend (app-view-parents).
  const actual = tagged[OBS_PARENT] !== undefined ? (tagged[OBS_PARENT] ?? undefined) : span.parentSpanContext;
  if ((target?.spanId ?? undefined) === (actual?.spanId ?? undefined)) {
    if (actual === span.parentSpanContext) return span;
    // Re-pointed for the app's backend only: obs exports it under its own parent.
    return Object.create(span, { parentSpanContext: { value: target ?? undefined, enumerable: true } }) as ReadableSpan;
  }
  const links: Link[] = actual ? [...span.links, { context: actual, attributes: { [FOREIGN_PARENT_LINK_ATTRIBUTE]: true } }] : span.links;
  // A view over the span: the app's exporters keep seeing the real parent.
  return Object.create(span, {
    parentSpanContext: { value: target ?? undefined, enumerable: true },
    links: { value: links, enumerable: true },
  }) as ReadableSpan;
}
