/**
 * What the span processor adds to spans: at start, the propagated trace attributes (user,
 * session, tags, metadata, ...), a request's identity, environment and release, and the marks
 * that decide export and parentage; at end, the identity that resolved late and the obs reading
 * of GenAI spans.
 */
import type { Attributes, Context } from '@opentelemetry/api';
import type { ReadableSpan, SdkSpan as Span } from '../../tracing/sdk-types.js';
import { ObsAttributes } from '../../tracing/attributes.js';
import { IN_OBS_TRACE_KEY } from '../../tracing/context-keys.js';
import { lateAttributesOf } from '../../tracing/late-attributes.js';
import { propagatedAttributesOf } from '../../tracing/propagation.js';
import { SDK_TRACER_NAME } from '../../util/version.js';
import { rememberExportParents, type FrameworkSpansMode } from './foreign-spans.js';
import { applyGenAiAttributes } from './genai-attributes.js';
import { applyRequestIdentity, mergeLateAttributes, rememberRequestBox } from './late-identity.js';
import { isLlmScope } from '../../tracing/scopes.js';
import { markInObsTrace } from './span-filter.js';

export class SpanEnricher {
  constructor(
    private readonly environment: string | undefined,
    private readonly release: string | undefined,
    private readonly frameworkSpans: FrameworkSpansMode,
  ) {}

  /** At span start. */
  start(span: Span, parentContext: Context): void {
    // An observation's own version wins over the propagated (trace-level) one.
    const ownVersion = span.attributes?.[ObsAttributes.VERSION];
    const box = lateAttributesOf(parentContext);
    rememberRequestBox(span, box);
    const late = box?.read();
    if (late) mergeLateAttributes(span.attributes as Attributes, late);
    // Explicit propagateAttributes inside the request wins over late (identify) attributes.
    const propagated = propagatedAttributesOf(parentContext);
    if (propagated) span.setAttributes(propagated);
    if (ownVersion !== undefined && (late || propagated)) span.setAttribute(ObsAttributes.VERSION, ownVersion);
    // The processor's environment is a default: an observation that names its own keeps it.
    if (this.environment && span.attributes?.[ObsAttributes.ENVIRONMENT] === undefined) {
      span.setAttribute(ObsAttributes.ENVIRONMENT, this.environment);
    }
    if (this.release) span.setAttribute(ObsAttributes.RELEASE, this.release);
    // obs-sdk spans are exported by scope; only other tracers' spans need the mark.
    const scope = span.instrumentationScope?.name ?? '';
    const own = scope === SDK_TRACER_NAME;
    const inObs = Boolean(parentContext.getValue(IN_OBS_TRACE_KEY));
    if (inObs && !own) markInObsTrace(span);
    rememberExportParents(span, parentContext, own || inObs || isLlmScope(scope), this.frameworkSpans);
  }

  /** At span end, for spans that will be exported (before the mask, which must see what this adds). */
  end(span: ReadableSpan): void {
    // The request's identity may have resolved after this span started (async identify).
    applyRequestIdentity(span);
    // GenAI and AI SDK spans read as generations.
    applyGenAiAttributes(span);
  }
}
