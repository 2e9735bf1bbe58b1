/**
 * What the span processor remembers about a span, kept on the span object itself: a WeakMap
 * entry per span costs a hash insert and ephemeron work in every GC. `LightSpan` declares these
 * slots, so its shape never changes; other providers' spans get them as added properties.
 */
/** The request's late attributes box (identify's user, session, ...). */
export const REQUEST_BOX = Symbol('obs.requestBox');
/** The span was started inside obs work (an observation or `propagateAttributes`). */
export const IN_OBS_TRACE = Symbol('obs.inTrace');
/** Nearest ancestor-or-self that obs exports as an obs parent (null: none, the span is a root). */
export const NEAREST_OBS = Symbol('obs.nearestObs');
/** Nearest ancestor-or-self that obs exports at all (framework spans included in `export` mode). */
export const NEAREST_ANY = Symbol('obs.nearestExported');
/** The parent obs exports a span under (null: a root), resolved at its start; undefined: not seen. */
export const EXPORT_PARENT = Symbol('obs.exportParent');
/**
 * On a span of the app's tracers started inside an obs observation that the app's provider never
 * receives: the parent it had (the observation; null: none), before obs re-pointed it for the app.
 */
export const OBS_PARENT = Symbol('obs.obsParent');
/** Binary data of the span's input, output and metadata, by the token written in its place (`media-capture.ts`). */
export const MEDIA_BYTES = Symbol('obs.mediaBytes');
/** Where the export's media step stands with the span (what it found, what it knows of the uploads). */
export const MEDIA_STATE = Symbol('obs.mediaState');

/**
 * A capability, not a class: a span whose times are epoch milliseconds it keeps as numbers
 * (`startMs`, `endMs`; obs's `LightSpan`) says so with `[EPOCH_MS]: true`, and the encoder reads
 * those instead of the `HrTime` arrays the span builds on demand.
 */
export const EPOCH_MS = Symbol('obs.epochMs');

/** A span with the `EPOCH_MS` capability. */
export interface EpochMsSpan {
  readonly [EPOCH_MS]: true;
  /** Epoch milliseconds. */
  readonly startMs: number;
  /** Epoch milliseconds; 0 until ended. */
  readonly endMs: number;
}

/** Whether `span` keeps its times as epoch milliseconds. */
export function hasEpochMs(span: object): span is EpochMsSpan {
  return (span as { [EPOCH_MS]?: unknown })[EPOCH_MS] === true;
}
