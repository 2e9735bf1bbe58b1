/**
 * `@obs/next`: obs tracing for Next.js (App Router, Node.js and edge runtimes).
 *
 * - `registerObs(options?)` in `instrumentation.ts`'s `register()`
 * - `export { onRequestError } from '@obs/next'` in `instrumentation.ts`
 * - `withObs(handler, options?)` around route handlers
 *
 * Server actions and server components use `observe` / `startActiveObservation` from `@obs/core`.
 *
 * @packageDocumentation
 */
export { registerObs } from './register.js';
export { withObs } from './with-obs.js';
export { onRequestError } from './on-request-error.js';
export { nextExportFilter } from './export-filter.js';
export { NEXT_SCOPE, isNextSpan } from './next-spans.js';
export type { RegisterObsOptions, WithObsOptions, RequestErrorContext, RequestErrorInfo } from './options.js';
