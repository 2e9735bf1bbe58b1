import { context, trace, type Attributes, type Context } from '@opentelemetry/api';
import { ObsAttributes } from './attributes.js';
import { flattenAttributes } from '../util/flatten.js';
import { logger } from '../util/logger.js';
import { describeBinaryObject, jsonProblem, safeStringify } from '../util/serialize.js';
import { IN_OBS_TRACE_KEY, PROPAGATED_ATTRIBUTES_KEY } from './context-keys.js';
import { layer } from './layered-context.js';

const PROPAGATION_KEYS = [PROPAGATED_ATTRIBUTES_KEY, IN_OBS_TRACE_KEY] as const;

/** Trace-level attributes carried by every span created inside `propagateAttributes`. */
export interface PropagateAttributesParams {
  userId?: string;
  sessionId?: string;
  /** Merged as a set union with enclosing calls. */
  tags?: string[];
  /** Any JSON-serialisable value; flattened by dotted path, shallow-merged with enclosing calls. */
  metadata?: unknown;
  version?: string;
  traceName?: string;
}

/** What a propagation scope holds: the merged params and their precomputed span attributes. */
interface PropagatedState {
  params: Required<Pick<PropagateAttributesParams, 'tags'>> & Omit<PropagateAttributesParams, 'tags'>;
  attributes: Attributes;
}

const MAX_ID_LENGTH = 200;
const MAX_TAG_LENGTH = 200;
const MAX_NAME_LENGTH = 1000;

/**
 * Runs `fn` with trace attributes that every span created inside it (at any depth, across
 * `await`, by obs or by any OpenTelemetry tracer) carries. Nested calls merge: tags union,
 * metadata shallow-merge, inner values win. Invalid values are dropped with one warning.
 */
export function propagateAttributes<T>(params: PropagateAttributesParams, fn: () => T): T {
  let ctx: Context;
  try {
    ctx = contextWithAttributes(context.active(), params);
  } catch (err) {
    logger.warn(`propagateAttributes: ignored (${String(err)})`);
    return fn();
  }
  return context.with(ctx, fn);
}

/**
 * The context `propagateAttributes` would run in; adapters use it to avoid an extra closure.
 * By default the attributes also go on the span active in `parent` (a request's root is part of
 * the trace too); `setOnActiveSpan: false` composes a context for later use without touching it.
 */
export function contextWithAttributes(
  parent: Context,
  params: PropagateAttributesParams,
  options: { setOnActiveSpan?: boolean } = {},
): Context {
  const state = stateWithAttributes(parent, params, options.setOnActiveSpan !== false);
  return layer(parent, PROPAGATION_KEYS, [state, parent.getValue(IN_OBS_TRACE_KEY) ?? true]);
}

/**
 * What `contextWithAttributes` would carry: the attributes of `params` merged over those of
 * `parent`, also put on the span active in `parent`; for callers that keep the attributes, not
 * a context (a request's `identify`).
 */
export function mergedAttributes(parent: Context, params: PropagateAttributesParams): Attributes {
  return stateWithAttributes(parent, params, true).attributes;
}

function stateWithAttributes(parent: Context, params: PropagateAttributesParams, setOnActiveSpan: boolean): PropagatedState {
  const outer = parent.getValue(PROPAGATED_ATTRIBUTES_KEY) as PropagatedState | undefined;
  const state = mergeState(outer, validate(params ?? {}));
  if (setOnActiveSpan) {
    const active = trace.getSpan(parent);
    if (active?.isRecording()) active.setAttributes(state.attributes);
  }
  return state;
}

/** The precomputed attributes to copy onto a span starting in `ctx`. */
export function propagatedAttributesOf(ctx: Context): Attributes | undefined {
  return (ctx.getValue(PROPAGATED_ATTRIBUTES_KEY) as PropagatedState | undefined)?.attributes;
}

function validate(params: PropagateAttributesParams): PropagateAttributesParams {
  const out: PropagateAttributesParams = {};
  // Made only when something is dropped: identify runs per request.
  let dropped = validString(params, out, 'userId', MAX_ID_LENGTH, undefined);
  dropped = validString(params, out, 'sessionId', MAX_ID_LENGTH, dropped);
  dropped = validString(params, out, 'version', MAX_NAME_LENGTH, dropped);
  dropped = validString(params, out, 'traceName', MAX_NAME_LENGTH, dropped);
  if (params.tags !== undefined && params.tags !== null) {
    if (!Array.isArray(params.tags)) (dropped ??= []).push('tags (not an array)');
    else {
      out.tags = [];
      for (const t of params.tags) {
        if (typeof t === 'string' && t.length > 0 && t.length <= MAX_TAG_LENGTH) out.tags.push(t);
        else (dropped ??= []).push(`tag ${safeStringify(t).slice(0, 40)}`);
      }
    }
  }
  if (params.metadata !== undefined && params.metadata !== null) {
    // Checked by its structure, not written out: a 5 MB string or a Buffer costs nothing here.
    const problem = jsonProblem(params.metadata);
    if (problem === undefined) out.metadata = params.metadata;
    else (dropped ??= []).push(`metadata (not JSON-serialisable: ${problem})`);
  }
  if (dropped) logger.warn(`propagateAttributes: dropped invalid values: ${dropped.join(', ')}`);
  return out;
}

/** Copies a valid string param to `out`, or notes it in `dropped` (returned, made if needed). */
function validString(
  params: PropagateAttributesParams,
  out: PropagateAttributesParams,
  key: 'userId' | 'sessionId' | 'version' | 'traceName',
  max: number,
  dropped: string[] | undefined,
): string[] | undefined {
  const v = params[key];
  if (v === undefined || v === null) return dropped;
  if (typeof v === 'string' && v.length > 0 && v.length <= max) out[key] = v;
  else (dropped ??= []).push(`${key} (${typeof v === 'string' ? `${v.length} chars, max ${max}` : typeof v})`);
  return dropped;
}

/** Shared by every scope without tags (never mutated). */
const NO_TAGS: string[] = Object.freeze([]) as unknown as string[];

function mergeState(outer: PropagatedState | undefined, inner: PropagateAttributesParams): PropagatedState {
  const o = outer?.params;
  const tags = o?.tags.length || inner.tags?.length ? [...new Set([...(o?.tags ?? []), ...(inner.tags ?? [])])] : NO_TAGS;
  const metadata = mergeMetadata(o?.metadata, inner.metadata);
  const params: PropagatedState['params'] = {
    userId: inner.userId ?? o?.userId,
    sessionId: inner.sessionId ?? o?.sessionId,
    version: inner.version ?? o?.version,
    traceName: inner.traceName ?? o?.traceName,
    tags,
    metadata,
  };
  const attributes: Attributes = {};
  if (params.userId) attributes[ObsAttributes.TRACE_USER_ID] = params.userId;
  if (params.sessionId) attributes[ObsAttributes.TRACE_SESSION_ID] = params.sessionId;
  if (params.version) attributes[ObsAttributes.VERSION] = params.version;
  if (params.traceName) attributes[ObsAttributes.TRACE_NAME] = params.traceName;
  if (tags.length > 0) attributes[ObsAttributes.TRACE_TAGS] = tags;
  if (metadata !== undefined) flattenAttributes(ObsAttributes.TRACE_METADATA, metadata, attributes);
  return { params, attributes };
}

function mergeMetadata(outer: unknown, inner: unknown): unknown {
  if (inner === undefined) return outer;
  if (isRecord(outer) && isRecord(inner)) return { ...outer, ...inner };
  return inner;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && describeBinaryObject(v) === undefined;
}
