import { errorMessage } from '../../tracing/record-error.js';
import { logger } from '../../util/logger.js';
import { hasContent } from '../request-capture.js';
import type { RequestObservation } from '../request-observation.js';
import type { NodeRequestLike, NodeResponseLike } from './node-types.js';
import type { NodeResponseCapture } from './response-capture.js';

/**
 * One Node.js request being observed: its root observation and the Node request/response pair,
 * ended once when the response closes (finished, or cut short by the client) with the status,
 * the input and the output. Adapters extend it with what only their framework knows (e.g. the
 * route Express matched) and override `beforeEnd` to apply it.
 */
// biome-ignore lint/suspicious/noExplicitAny: Req/Res default to any so a callback typed by no framework still reads its fields (req.user); adapters pass their framework's types
export class NodeRequest<Req extends object = any, Res extends object = any> {
  /** The request `identify`/`captureInput` see and the input is read from (a framework may wrap the raw one). */
  req: Req;
  /** The response handlers see. */
  res: Res;
  /** What the response sends through `write`/`end`, when the adapter records output that way. */
  output: NodeResponseCapture | undefined;
  /** The input was recorded already (e.g. by an interceptor that saw the parsed body). */
  inputRecorded = false;
  private ended = false;

  constructor(
    readonly ro: RequestObservation<Req, Res>,
    readonly rawReq: NodeRequestLike & object,
    readonly rawRes: NodeResponseLike,
    /** URL path without the query string. */
    readonly path: string,
    /** Log prefix, e.g. `@obs/express`. */
    protected readonly adapter: string,
  ) {
    this.req = rawReq as Req;
    this.res = rawRes as unknown as Res;
  }

  /**
   * The request and response the framework hands to its handlers when they wrap the raw ones
   * (Fastify's `FastifyRequest`/`FastifyReply`): `identify`, `captureInput` and the input read them.
   */
  link(req: Req, res: Res): void {
    if (req === this.req && res === this.res) return;
    this.req = req;
    this.res = res;
    this.ro.setRequest(req);
  }

  /** Records the parsed body, else the query (read only then: Express 5 parses it on every read). */
  recordInput(): void {
    this.inputRecorded = true;
    const req = this.req as NodeRequestLike;
    const body = req?.body;
    if (hasContent(body)) this.ro.setInput(body);
    else this.ro.setInput(undefined, req?.query);
  }

  /** An error the framework caught: the status the response ends with decides what it means. */
  noteError(error: unknown): void {
    this.ro.noteError(error);
  }

  /**
   * Ends the root observation (the layer calls this when the response closes; idempotent): what
   * the adapter knows (`beforeEnd`), the input, the output, then the status and abort rule.
   */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const res = this.rawRes;
    // Ended by the app counts as complete even if not yet flushed: a socket that buffers (a test
    // injector's, a slow client's) must not turn every answered request into a cancelled one.
    // `writableEnded` first: an answered request reads one getter, not two (Express gives each
    // response its own hidden class, so every property read is an inline-cache miss).
    const aborted = res.writableEnded !== true && !res.writableFinished;
    // Nothing was sent: there is no status to report.
    const statusCode = aborted && !res.headersSent ? undefined : res.statusCode;
    try {
      this.beforeEnd(statusCode, aborted);
      if (!this.inputRecorded) this.recordInput();
      this.output?.finish(res.statusCode);
    } catch (err) {
      logger.warn(`${this.adapter}: could not record the request: ${errorMessage(err)}`);
    }
    this.ro.finish({ statusCode, aborted });
  }

  /** What the framework knows at the end (the route it matched); runs before input and output are read. */
  protected beforeEnd(_statusCode: number | undefined, _aborted: boolean): void {}
}
