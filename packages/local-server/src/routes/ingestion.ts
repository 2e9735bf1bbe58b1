/**
 * `POST /api/public/otel/v1/traces`: OTLP protobuf or JSON (any content encoding already undone),
 * decoded and kept; other methods on that path answer 405.
 */
import { answer, refuse } from '../http/answer.js';
import { headerValue } from '../http/body.js';
import { decodeOtlpJson } from '../otlp/otlp-json-decode.js';
import { decodeOtlpProtobuf } from '../otlp/otlp-proto-decode.js';
import type { SpanStore } from '../stores/types.js';
import type { DecodedSpan } from '../types.js';
import type { ApiRoute } from './api-route.js';

/** Where OTLP trace exports arrive. */
export const TRACES_PATH = '/api/public/otel/v1/traces';

/** What ingestion needs from the server. */
export interface IngestionDeps {
  spans: SpanStore;
  /** Tells the listeners (viewer, `onSpans`, `subscribe`) that spans were kept. */
  arrived(spans: DecodedSpan[]): void;
  warn(message: string): void;
}

/** The trace ingestion routes. */
export function ingestionRoutes({ spans, arrived, warn }: IngestionDeps): ApiRoute[] {
  return [
    {
      methods: ['POST'],
      path: TRACES_PATH,
      handle: (record) => {
        const type = (headerValue(record.headers['content-type']) ?? '').toLowerCase();
        const compressed = record.rawBody !== record.body;
        let decoded: DecodedSpan[];
        let responseType: string;
        try {
          if (type.includes('protobuf')) {
            decoded = decodeOtlpProtobuf(record.body, compressed);
            responseType = 'application/x-protobuf';
          } else if (type.includes('json')) {
            decoded = decodeOtlpJson(record.json !== undefined ? record.json : record.body, compressed);
            responseType = 'application/json';
          } else {
            return refuse(415, `unsupported Content-Type ${JSON.stringify(type)}: use application/x-protobuf or application/json`);
          }
        } catch (err) {
          const message = (err as Error)?.message ?? String(err);
          warn(`POST ${TRACES_PATH}: 400 ${message}`);
          return refuse(400, message);
        }
        spans.add(decoded);
        arrived(decoded);
        // An empty body is a valid protobuf ExportTraceServiceResponse; `{}` the JSON one.
        const body = responseType === 'application/json' ? Buffer.from('{}') : Buffer.alloc(0);
        return answer(200, body, { 'content-type': responseType });
      },
    },
    { methods: ['*'], path: TRACES_PATH, handle: (r) => refuse(405, `${r.method} not allowed on ${r.path}`) },
  ];
}
