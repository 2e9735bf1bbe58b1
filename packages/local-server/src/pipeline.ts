/**
 * The way every request takes through the server. First its request line and `Host` must name
 * one host (else 400), and that host, and its `Origin`, this machine or an allowed host (else 403
 * and one log line). The viewer's routes answer next, behind the viewer's door (not SDK traffic:
 * neither recorded nor faulted). Anything else is public API: its key is checked from the
 * headers, before a byte of its body is read (401, and the connection closed, without reading
 * it); then its body is read (as sent and decoded, at most the size limit: 413), the request
 * recorded when the tests' recorder is on, an injected fault may act on it, and the route table
 * answers; anything else under `/api/public/` is echoed back. Nothing of a request is kept once
 * it is answered, but by the recorder.
 *
 * A store that cannot write (a full disk, an I/O error) answers 507 or 503 with one log line
 * naming the cause, never a stack.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Answer, refuse, writeAnswer } from './http/answer.js';
import { authError, authorized, parseAuth } from './http/auth.js';
import { headerValue } from './http/body.js';
import type { HostGuard } from './http/hosts.js';
import { readRequestBody, requestRecord } from './http/recorded-request.js';
import { requestTarget } from './http/request-target.js';
import type { Router } from './http/router.js';
import { VIEWER_HEADERS, type ViewerDoor } from './http/viewer-door.js';
import type { ApiHandler } from './routes/api-route.js';
import type { ViewerHandler } from './routes/viewer-route.js';
import { StorageUnavailableError } from './stores/types.js';
import { applyFault, type FaultQueue } from './test-controls/faults.js';
import type { HeldRequests } from './test-controls/outages.js';
import type { RequestRecorder } from './test-controls/recorder.js';
import type { RecordedRequest } from './types.js';

/** What the pipeline is made of; the server builds each part. */
export interface PipelineParts {
  hosts: HostGuard;
  viewer: Router<ViewerHandler>;
  door: ViewerDoor;
  api: Router<ApiHandler>;
  keys: { publicKey: string; secretKey: string };
  /** The tests' request recorder; `undefined` when requests are not recorded (the CLI). */
  recorder: RequestRecorder | undefined;
  faults: FaultQueue;
  held: HeldRequests;
  /** Aborted when the server closes (a delayed request then drops its connection). */
  closing: AbortSignal;
  maxBodyBytes(): number;
  /** Logs one line (`multiline`: a stack, its lines kept). */
  warn(message: string, multiline?: boolean): void;
  /** Says one line about the storage once per cause and minute (a full disk would say it per request). */
  warnStorage(message: string): void;
}

/** Handles one request; never rejects (an internal error answers 500 and is logged). */
export function handleRequest(parts: PipelineParts, req: IncomingMessage, res: ServerResponse): void {
  let record: RecordedRequest | undefined;
  const method = (req.method ?? 'GET').toUpperCase();
  const run = async () => {
    const target = requestTarget(req, parts.hosts);
    if ('refusal' in target) {
      parts.warn(`400 ${method}: ${target.refusal}`);
      return writeAnswer(res, 400, { message: target.refusal }, { ...REFUSAL_HEADERS, connection: 'close' });
    }
    const { url } = target;
    const refusal = parts.hosts.refusal(req.headers);
    if (refusal) {
      parts.warn(`403 ${method} ${url.pathname}: ${refusal} (allow a host name with --allow-host or OBS_LOCAL_ALLOWED_HOSTS)`);
      return writeAnswer(res, 403, { message: `${refusal}: the local obs server answers only requests to this machine` }, REFUSAL_HEADERS);
    }
    const viewer = parts.viewer.match(method, url.pathname);
    if (viewer) {
      const door = parts.door.check(req, url);
      if (!door.enter) return writeAnswer(res, door.answer.status, door.answer.body, { ...VIEWER_HEADERS, ...door.answer.headers });
      const headers = door.setCookie ? { ...VIEWER_HEADERS, 'set-cookie': door.setCookie } : VIEWER_HEADERS;
      const answer = await viewer.route.handle({ req, res, url, headers }, viewer.params);
      if (answer) writeAnswer(res, answer.status, answer.body, { ...headers, ...answer.headers });
      return;
    }

    // The public API: who is asking, from the headers alone.
    const auth = parseAuth(headerValue(req.headers.authorization), parts.keys.publicKey, parts.keys.secretKey);
    record = requestRecord(req, url, auth);
    const match = parts.api.match(method, url.pathname);
    const early =
      !match && !url.pathname.startsWith('/api/public/')
        ? refuse(404, `no route for ${method} ${url.pathname}`)
        : !authorized(match?.route.auth ?? 'secret', auth)
          ? refuse(401, authError(auth))
          : undefined;
    if (early) {
      parts.recorder?.add(record, false);
      // Answered before the body is read. A small body is then let through and dropped (so the
      // client reads this answer rather than a reset, and keeps its connection); anything larger,
      // or of unknown length, has its connection closed, its bytes dropped unread.
      return send(record, res, largeBody(req) ? { ...early, headers: { connection: 'close' } } : early);
    }

    const read = await readRequestBody(req, record, parts.maxBodyBytes());
    parts.recorder?.add(record, read.failed === undefined);
    if (read.failed === 'gone') return;
    if (read.failed) return send(record, res, { status: 413, body: { message: read.failed.message }, headers: { connection: 'close' } });

    const fault = parts.faults.take(record.method, record.path);
    if (fault) {
      const outcome = await applyFault(fault, parts.held, parts.closing);
      if (outcome === 'dropped') return void req.socket.destroy();
      if (outcome !== 'continue') return send(record, res, outcome.answer);
    }
    if (read.bodyError) {
      parts.warn(`${record.method} ${record.path}: 400 ${read.bodyError}`);
      return send(record, res, refuse(400, read.bodyError));
    }
    send(record, res, await routeApi(match, record));
  };
  run().catch((err: unknown) => {
    if (err instanceof StorageUnavailableError) {
      parts.warnStorage(`${err.message}: answering ${err.status}`);
      if (record && !res.headersSent) record.status = err.status;
      return writeAnswer(res, err.status, { message: err.message }, { 'retry-after': '30' });
    }
    parts.warn(`internal error: ${(err as Error)?.stack ?? String(err)}`, true);
    if (record && !res.headersSent) record.status = 500;
    writeAnswer(res, 500, { message: `internal error: ${(err as Error)?.message ?? String(err)}` });
  });
}

/** The route's answer (the key already allowed it), or an echo of a request to an unknown `/api/public/` path. */
function routeApi(match: ReturnType<Router<ApiHandler>['match']>, record: RecordedRequest): Answer | Promise<Answer> {
  if (match) return match.route.handle(record, match.params);
  const { method, path } = record;
  return { status: 200, body: { ok: true, method, path, query: record.query, body: record.json ?? null } };
}

/** Largest body a refused request may still send, dropped as it comes, on a connection kept open. */
const DROPPED_BODY_BYTES = 1024 * 1024;

/** Whether the request announced a body larger than a refusal lets through, or chunks of unknown length. */
function largeBody(req: IncomingMessage): boolean {
  const length = Number(headerValue(req.headers['content-length']) ?? 0);
  return !(length <= DROPPED_BODY_BYTES) || req.headers['transfer-encoding'] !== undefined;
}

const REFUSAL_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function send(record: RecordedRequest, res: ServerResponse, answer: Answer): void {
  record.status = answer.status;
  writeAnswer(res, answer.status, answer.body, answer.headers);
}
