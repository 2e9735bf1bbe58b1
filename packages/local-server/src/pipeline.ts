/**
 * The way every request takes through the server. First its `Host` and `Origin` must name this
 * machine (or an allowed host): else 403 and one log line. The viewer's routes answer next,
 * behind the viewer's door (not SDK traffic: neither recorded nor faulted). Anything else is
 * public API: its body is read and the request recorded, an injected fault may act on it, its
 * key is checked against the route's needs, and the route table answers; anything else under
 * `/api/public/` is echoed back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Answer, refuse, writeAnswer } from './http/answer.js';
import { authError, authorized, parseAuth } from './http/auth.js';
import { headerValue } from './http/body.js';
import type { HostGuard } from './http/hosts.js';
import { readRequest } from './http/recorded-request.js';
import type { Router } from './http/router.js';
import { VIEWER_HEADERS, type ViewerDoor } from './http/viewer-door.js';
import type { ApiHandler } from './routes/api-route.js';
import type { ViewerHandler } from './routes/viewer-route.js';
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
  recorder: RequestRecorder;
  faults: FaultQueue;
  held: HeldRequests;
  /** Aborted when the server closes (a delayed request then drops its connection). */
  closing: AbortSignal;
  maxBodyBytes(): number;
  warn(message: string): void;
}

/** Handles one request; never rejects (an internal error answers 500 and is logged). */
export function handleRequest(parts: PipelineParts, req: IncomingMessage, res: ServerResponse): void {
  let record: RecordedRequest | undefined;
  const run = async () => {
    const url = new URL(req.url ?? '/', 'http://local');
    const method = (req.method ?? 'GET').toUpperCase();
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
    const auth = parseAuth(headerValue(req.headers.authorization), parts.keys.publicKey, parts.keys.secretKey);
    const read = await readRequest(req, url, auth, parts.maxBodyBytes());
    record = read.record;
    parts.recorder.add(record, read.failed === undefined);
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
    send(record, res, await routeApi(parts, record));
  };
  run().catch((err: unknown) => {
    parts.warn(`internal error: ${(err as Error)?.stack ?? String(err)}`);
    if (record && !res.headersSent) record.status = 500;
    writeAnswer(res, 500, { message: `internal error: ${(err as Error)?.message ?? String(err)}` });
  });
}

/** The route's answer, once the request's key allows it; 404 off the public API, an echo on it. */
function routeApi(parts: PipelineParts, record: RecordedRequest): Answer | Promise<Answer> {
  const { method, path } = record;
  const match = parts.api.match(method, path);
  if (!match && !path.startsWith('/api/public/')) return refuse(404, `no route for ${method} ${path}`);
  if (!authorized(match?.route.auth ?? 'secret', record.auth)) return refuse(401, authError(record.auth));
  if (match) return match.route.handle(record, match.params);
  return { status: 200, body: { ok: true, method, path, query: record.query, body: record.json ?? null } };
}

const REFUSAL_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function send(record: RecordedRequest, res: ServerResponse, answer: Answer): void {
  record.status = answer.status;
  writeAnswer(res, answer.status, answer.body, answer.headers);
}
