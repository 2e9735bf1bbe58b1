/**
 * What one request asked and what its response returned: references kept on the request path,
 * serialised once when the request ends (with redaction and the size cap).
 */
import type { Span } from '@opentelemetry/api';
import { ObsAttributes } from '../tracing/attributes.js';
import { errorMessage } from '../tracing/record-error.js';
import { TextCapture } from '../util/capture.js';
import { logger } from '../util/logger.js';
import { captureValue } from './capture-value.js';
import type { ObsHttpOptions } from './options.js';

/** The compiled options a capture reads (an `HttpObserver` is one). */
export interface CaptureSettings<Req, Res> {
  readonly options: ObsHttpOptions<Req, Res>;
  readonly redactKeys: Set<string>;
  readonly maxChars: number;
}

export class RequestCapture<Req, Res> {
  private input: unknown;
  private inputSet = false;
  private output: unknown;
  private outputSet = false;
  private contentType?: string;
  private stream?: TextCapture;
  private res?: Res;

  constructor(private readonly settings: CaptureSettings<Req, Res>) {}

  /** Records what the request asked (default: the body, else the query). */
  setInput(req: Req, body: unknown, query?: unknown): void {
    const capture = this.settings.options.captureInput;
    if (capture === false) return;
    try {
      this.input = typeof capture === 'function' ? capture(req) : pickInput(body, query);
      this.inputSet = true;
    } catch (err) {
      logger.warn(`captureInput threw: ${errorMessage(err)}`);
    }
  }

  /** Records what the response returned (JSON value, text or bytes). */
  setOutput(body: unknown, res: Res, contentType?: string): void {
    if (this.settings.options.captureOutput === false) return;
    this.output = body;
    this.outputSet = true;
    this.contentType = contentType;
    this.res = res;
  }

  /** Adds a chunk of a streamed response (SSE, chunked text); reassembled up to the cap. */
  addOutputChunk(chunk: unknown, res: Res, contentType?: string): void {
    if (this.settings.options.captureOutput === false) return;
    this.stream ??= new TextCapture(this.settings.maxChars);
    this.stream.push(chunk);
    this.contentType ??= contentType;
    this.res = res;
  }

  /** Serialises input and output onto the span (the request has ended). */
  write(span: Span): void {
    const { options, redactKeys, maxChars } = this.settings;
    if (this.inputSet) {
      const text = captureValue(this.input, redactKeys, maxChars);
      if (text !== undefined) span.setAttribute(ObsAttributes.OBSERVATION_INPUT, text);
    }
    const capture = options.captureOutput;
    // Streamed text is already capped (with its marker) by TextCapture: never cut it twice.
    let output: unknown = this.stream ? this.stream.text() : this.outputSet ? this.output : undefined;
    const streamed = this.stream !== undefined && typeof capture !== 'function';
    if (typeof capture === 'function' && (this.stream || this.outputSet)) {
      try {
        output = capture(output, this.res as Res);
      } catch (err) {
        logger.warn(`captureOutput threw: ${errorMessage(err)}`);
        output = undefined;
      }
    }
    const max = streamed ? Number.MAX_SAFE_INTEGER : maxChars;
    const text = captureValue(output, redactKeys, max, this.contentType);
    if (text !== undefined) span.setAttribute(ObsAttributes.OBSERVATION_OUTPUT, text);
  }
}

function pickInput(body: unknown, query: unknown): unknown {
  if (hasContent(body)) return body;
  if (hasContent(query)) return query;
  return undefined;
}

/** Whether a request body or query holds anything worth recording (an empty object does not). */
export function hasContent(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return false;
  if (typeof v !== 'object' || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return true;
  if (Array.isArray(v)) return v.length > 0;
  // The first own enumerable key answers: no key array per request.
  for (const key in v) if (Object.hasOwn(v, key)) return true;
  return false;
}
