/**
 * `@obs/local-server`: a real local obs HTTP server for tests, demos and benchmarks.
 * It decodes OTLP trace exports (protobuf and JSON, gzip or not), answers scores and a few
 * reads, records every request, and can inject faults.
 *
 * @example
 * ```ts
 * import { startObsServer, formatTrace } from '@obs/local-server';
 *
 * const obs = await startObsServer();
 * // point the SDK at obs.url with obs.publicKey / obs.secretKey, then:
 * const spans = await obs.waitForSpans(3);
 * console.log(formatTrace(spans));
 * await obs.close();
 * ```
 *
 * @packageDocumentation
 */
export { startObsServer, DEFAULTS } from './server.js';
export { formatTrace, printTracesAsTheyArrive, type FormatTraceOptions, type PrintTracesOptions } from './print-trace.js';
export { decodeOtlpProtobuf } from './otlp/otlp-proto-decode.js';
export { decodeOtlpJson } from './otlp/otlp-json-decode.js';
export { OtlpDecodeError } from './otlp/decoded-span.js';
export { spanToObservation, type ObservationV2, type ObservationFilter } from './model/observations.js';
export type { ScoreError } from './model/score-batch.js';
export type {
  AttrValue,
  DecodedSpan,
  DecodedSpanEvent,
  DecodedSpanLink,
  Fault,
  HeldMedia,
  MediaAsk,
  MediaInspector,
  MediaReport,
  MediaStep,
  MediaUpload,
  ModelPrice,
  ObsServer,
  ObsServerOptions,
  ReceivedScore,
  RecordedRequest,
  RequestAuth,
  RetentionOptions,
  ScoreRule,
  WaitOptions,
} from './types.js';
export { VERSION } from './version.js';
