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
