import { describeBinary, isTextContentType } from '../capture-value.js';
import type { RequestObservation } from '../request-observation.js';
import type { NodeResponseLike } from './node-types.js';

/**
 * What a Node.js response sent, as the adapter reports it: a whole value (`res.json`), a whole
 * text (`res.send`), streamed chunks (`res.write`: SSE, chunked text, piped files) and `res.end`
 * (a whole body, or the last chunk).
 * Only references and byte counts are kept on the request path; core serialises at the end.
 */
export class NodeResponseCapture {
  /** A whole body was recorded (`res.json`); later writes are its serialisation. */
  private complete = false;
  /** Streamed chunks seen: as text, or counted as bytes. */
  private stream?: 'text' | 'binary';
  private bytes = 0;
  private contentType?: string;
  private encoding?: string;
  /** Text from `res.send`, recorded at the end with the content type Express gave it. */
  private pendingText?: string;

  /**
   * `res` is the Node.js response whose headers say what the body is; `subject` is what
   * `captureOutput(body, res)` gets, when the framework hands handlers something else (Koa's `ctx`).
   */
  constructor(
    private readonly ro: RequestObservation,
    private readonly res: NodeResponseLike,
    private readonly subject: unknown = res,
  ) {}

  /** A whole value the framework is about to serialise (`res.json(value)`), recorded as the value. */
  value(value: unknown): void {
    if (this.complete || this.stream) return;
    this.complete = true;
    this.ro.setOutput(value, this.subject, 'application/json');
  }

  /** A whole text body (`res.send(text)`); its content type may be set later, so it is read at the end. */
  text(text: string): void {
    if (this.complete || this.stream) return;
    this.complete = true;
    this.pendingText = text;
  }

  /** `res.write(chunk)`. */
  write(chunk: unknown, encoding: unknown): void {
    if (this.complete || chunk === undefined || chunk === null) return;
    if (!this.stream) {
      this.readHeaders();
      const textual = !this.encoding && (this.contentType ? isTextContentType(this.contentType) : typeof chunk === 'string');
      this.stream = textual ? 'text' : 'binary';
    }
    if (this.stream === 'text') this.ro.addOutputChunk(asText(chunk, encoding), this.subject, this.contentType);
    else this.bytes += byteLength(chunk, encoding);
  }

  /** `res.end(chunk?)`: the whole body (`res.send`), or the last chunk of a stream. */
  end(chunk: unknown, encoding: unknown): void {
    if (this.complete) return;
    if (typeof chunk === 'function') chunk = undefined;
    if (this.stream) {
      this.write(chunk, encoding);
      return;
    }
    if (chunk === undefined || chunk === null || chunk === '') return;
    this.complete = true;
    this.readHeaders();
    const ct = this.contentType;
    if (typeof chunk === 'string' && !isBinaryEncoding(encoding)) {
      this.ro.setOutput(chunk, this.subject, ct);
      return;
    }
    const bytes = toBytes(chunk, encoding);
    if (!bytes) return;
    if (this.encoding) this.ro.setOutput(describeBinary(bytes.byteLength, ct, this.encoding), this.subject, ct);
    // Core decodes bytes of a text content type and describes the rest, at finish.
    else this.ro.setOutput(bytes, this.subject, ct);
  }

  /** The response is over: a binary stream is described by its size; 204 and 304 sent no body. */
  finish(statusCode: number): void {
    if (statusCode === 204 || statusCode === 304) {
      if (this.complete || this.stream) this.ro.setOutput(undefined, this.subject);
      return;
    }
    if (this.pendingText !== undefined) {
      const ct = this.res.getHeader('content-type');
      this.ro.setOutput(this.pendingText, this.subject, ct === undefined ? undefined : String(ct));
    } else if (this.stream === 'binary')
      this.ro.setOutput(describeBinary(this.bytes, this.contentType, this.encoding), this.subject, this.contentType);
  }

  private readHeaders(): void {
    const ct = this.res.getHeader('content-type');
    this.contentType = ct === undefined ? undefined : String(ct);
    const ce = this.res.getHeader('content-encoding');
    // A compressed body (compression middleware below us) is bytes, whatever its type says.
    this.encoding = ce === undefined || String(ce).toLowerCase() === 'identity' ? undefined : String(ce);
  }
}

function isBinaryEncoding(encoding: unknown): boolean {
  return (
    typeof encoding === 'string' && !/^utf-?8$/i.test(encoding) && encoding !== 'ascii' && encoding !== 'latin1' && encoding !== 'binary'
  );
}

function asText(chunk: unknown, encoding: unknown): unknown {
  return typeof chunk === 'string' && isBinaryEncoding(encoding) ? toBytes(chunk, encoding) : chunk;
}

function toBytes(chunk: unknown, encoding: unknown): Uint8Array | undefined {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') {
    try {
      return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    } catch {
      return Buffer.from(chunk);
    }
  }
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  return undefined;
}

function byteLength(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string') return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (ArrayBuffer.isView(chunk) || chunk instanceof ArrayBuffer) return chunk.byteLength;
  return 0;
}
