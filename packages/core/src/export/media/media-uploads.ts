/**
 * The client side of the media upload protocol (wire contract 5): for each medium of an
 * observation, an ask (`POST /api/public/media`) whose answer names the media id (the server
 * knows it: it answers the same id for the same bytes, and links it to the observation), then,
 * when the server asks for the bytes (`uploadUrl`), an upload (`PUT`) and a report (`PATCH`).
 * Bytes the server holds are not asked for again, and bytes being uploaded are never uploaded
 * twice at once: the same image in a second observation makes no second PUT. Asks and uploads are bounded in
 * concurrency and in bytes held; each is retried a few times, never for ever; a failure is
 * counted in the outage log (unit `media`). As a delivery kind, a flush or shutdown waits for
 * the uploads within its one deadline.
 */
import { DrainDeadlines, type DeliveryKind, type Leftover } from '../../delivery/drain.js';
import type { Send } from '../../delivery/node-post.js';
import type { PostResult } from '../../delivery/post.js';
import { answerOutcome, failureOutcome, type SendOutcome } from '../../delivery/outcome.js';
import { OutageLog } from '../../delivery/outage-log.js';
import { logger } from '../../util/logger.js';
import { backoffDelay } from '../../util/retry.js';
import { MAX_MEDIA_BYTES } from '../../util/serialize.js';
import { Slots } from '../../util/slots.js';

export { MAX_MEDIA_BYTES };

/** Where and how the uploads go. */
export interface MediaUploadsOptions {
  baseUrl: string;
  /** Headers of the ask and the report (authorization, SDK headers); never sent with the bytes. */
  headers: Record<string, string>;
  send: Send;
  /** Timeout of an ask or a report; an upload gets this plus a second per MiB. */
  timeoutMs: number;
  /** First retry wait, in ms. */
  backoffMs?: number;
  /** Between "still failing" lines, in ms. */
  reportEveryMs?: number;
  /** Uploads in flight at once; default 4. */
  maxConcurrentUploads?: number;
  /** Most bytes held for asks and uploads not done yet; past it a medium fails at once. Default 128 MiB. */
  maxHeldBytes?: number;
}

/** One medium of one observation's field. */
export interface MediaItem {
  traceId: string;
  observationId: string;
  field: 'input' | 'output' | 'metadata';
  contentType: string;
  bytes: Uint8Array;
  /** Base64 SHA-256 of the bytes. */
  sha256Hash: string;
}

/**
 * Bytes held for one medium, from before it is decoded (its size is known from its base64's
 * length) until its last ask, upload and report ended.
 */
export interface HeldBytes {
  readonly size: number;
  /** The media step until its asks started, and each ask (with its upload) under way. */
  holders: number;
}

/** What the export puts in place of a medium: its id, or why there is none. */
export type MediaAnswer = { mediaId: string } | { failure: string };

/** One ask under way: when it left (or settled without leaving), and its answer. */
export interface MediaAsk {
  /** Resolves (true) when the ask's first attempt is sent, or when it settled without one. */
  departed: Promise<boolean>;
  /** Never rejects. */
  answer: Promise<MediaAnswer>;
}

/** Attempts per request (ask, upload, report) while no last try is under way. */
const ATTEMPTS = 3;
/**
 * Most asks in flight at once: small JSON requests on keep-alive sockets; a burst of 300 images at
 * a server answering in 200 ms is asked for in about 4 s.
 */
export const MAX_CONCURRENT_ASKS = 16;
/** A media id is one path segment of the report's URL: unreserved characters, not `.` or `..`. */
const MEDIA_ID = /^(?!\.{1,2}$)[\w.~-]{1,200}$/;
const KEYS_HINT = 'the server refused the keys: check OBS_PUBLIC_KEY/OBS_SECRET_KEY';

/** When an ask's turn comes: whether it is still wanted, and what to call as it leaves. */
interface AskTurn {
  wanted(): boolean;
  leave(): void;
}

/** Whether `value` is an absolute http(s) URL (an upload URL of another scheme is never followed). */
function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** A value of a server's answer in a log line: short, and a URL without its query (a signed URL's signature). */
function describeValue(value: unknown): string {
  if (typeof value !== 'string') return typeof value;
  const text = value.split('?')[0]!;
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}...` : text);
}

export class MediaUploads implements DeliveryKind {
  readonly unit = 'media';
  readonly quiet = true;
  private readonly askUrl: string;
  private readonly outage: OutageLog;
  private readonly asks = new Slots(MAX_CONCURRENT_ASKS);
  private readonly uploads: Slots;
  private readonly maxHeldBytes: number;
  /** Uploads under way, by content: each says whether its bytes arrived. */
  private readonly uploading = new Map<string, Promise<boolean>>();
  /** Everything under way, for `settled`. */
  private readonly work = new Set<Promise<unknown>>();
  /** Media not done yet (asked, uploading, reporting). */
  private inProgress = 0;
  /** Bytes held for media not done yet, each medium counted once however many asks share it. */
  private heldBytes = 0;
  /**
   * One abort controller per request (on Cloudflare Workers a signal belongs to the request that
   * made it), and the retry waits under way: what `abandon` stops.
   */
  private readonly inFlight = new Set<AbortController>();
  private readonly waits = new Set<() => void>();
  /** The drains waiting for the uploads: retry waits leave room for an attempt before their deadlines. */
  private readonly drains = new DrainDeadlines();
  /** The exit flush: no retries, losses counted for its line. */
  private finalTry = false;
  private lostInFinalTry = 0;
  /** Whether the server ever answered (a host name that stops resolving then is an outage, not a typo). */
  private reached = false;
  /** After `abandon`: losses are said by the drain's line, not again here. */
  private abandoned = false;

  constructor(private readonly options: MediaUploadsOptions) {
    this.askUrl = `${options.baseUrl}/api/public/media`;
    this.uploads = new Slots(options.maxConcurrentUploads ?? 4);
    this.maxHeldBytes = options.maxHeldBytes ?? 128 * 1024 * 1024;
    this.outage = new OutageLog(this.askUrl, { buffered: () => this.inProgress }, { unit: 'media', reportEveryMs: options.reportEveryMs });
  }

  /**
   * Holds `size` bytes for a medium about to be decoded, or undefined (the loss counted) when
   * they would pass the limit: then the medium is neither decoded nor hashed. `releaseBytes` it
   * once its asks started.
   */
  holdBytes(size: number): HeldBytes | undefined {
    if (this.heldBytes + size > this.maxHeldBytes) {
      this.lose(`${(this.maxHeldBytes / 1048576).toFixed(1)} MiB of media are waiting for upload already`);
      return undefined;
    }
    this.heldBytes += size;
    return { size, holders: 1 };
  }

  releaseBytes(held: HeldBytes): void {
    if (--held.holders === 0) this.heldBytes -= held.size;
  }

  /**
   * Asks for the media id of `item` (whose bytes `held` holds); the upload and report follow in
   * the background. `wanted` is asked when the ask's turn comes: false, and it is not sent (its
   * span left without it).
   */
  reference(item: MediaItem, held: HeldBytes, wanted: () => boolean = () => true): MediaAsk {
    const key = `${item.sha256Hash} ${item.contentType}`;
    if (item.bytes.byteLength > MAX_MEDIA_BYTES)
      return { departed: Promise.resolve(true), answer: Promise.resolve({ failure: 'larger than 50 MiB' }) };
    held.holders++;
    let leave!: (left: boolean) => void;
    const departed = new Promise<boolean>((resolve) => (leave = resolve));
    const answer = this.track(this.askThenUpload(key, item, held, { wanted, leave: () => leave(true) }));
    void answer.then(() => leave(true));
    return { departed, answer };
  }

  /** Counts media that leave their span as the failure marker, and why (the outage log sums them into its lines). */
  lose(why: string, count = 1): void {
    if (this.finalTry) this.lostInFinalTry += count;
    // What a drain abandoned is said in its own line.
    if (!this.abandoned) this.outage.lost(count, why);
  }

  // --- the delivery kind -------------------------------------------------------------------

  async settled(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  pending(): number {
    return this.inProgress;
  }

  lastTry(): void {
    this.finalTry = true;
    this.lostInFinalTry = 0;
    // A retry waiting for its backoff goes now: its attempt is the last.
    for (const wake of this.waits) wake();
    this.waits.clear();
  }

  endLastTry(): Leftover {
    this.finalTry = false;
    return { unsent: this.lostInFinalTry, inFlight: 0, reason: this.outage.reason };
  }

  abandon(): Leftover {
    // Never sent: waiting for a slot. The rest under way was sent (or is between retries).
    const unsent = this.asks.queued + this.uploads.queued;
    const left: Leftover = { unsent, inFlight: Math.max(0, this.inProgress - unsent), reason: this.outage.reason };
    // Until what is under way has failed; media after that goes as usual.
    this.abandoned = this.inProgress > 0;
    for (const controller of this.inFlight) controller.abort(new Error('abandoned at the deadline'));
    this.inFlight.clear();
    for (const wake of this.waits) wake();
    this.waits.clear();
    this.asks.release();
    this.uploads.release();
    return left;
  }

  settle(final: boolean): void {
    this.outage.settle(final);
  }

  drainBy(deadline: number): () => void {
    const end = this.drains.add(deadline);
    // Waits under way end now (their attempts come at once); later ones are cut by the deadline.
    for (const wake of this.waits) wake();
    this.waits.clear();
    return end;
  }

  // --- the protocol ------------------------------------------------------------------------

  private async askThenUpload(key: string, item: MediaItem, held: HeldBytes, turn: AskTurn): Promise<MediaAnswer> {
    this.inProgress++;
    let uploading = false;
    try {
      const answer = await this.ask(item, turn);
      if ('failure' in answer) {
        if (!('unsent' in answer)) this.lose(`the media upload was not accepted (${answer.failure})`);
        return answer;
      }
      if (answer.uploadUrl === null) {
        this.outage.delivered(1, this.inProgress <= 1);
        return { mediaId: answer.mediaId };
      }
      uploading = true;
      const earlier = this.uploading.get(key);
      // The same bytes being uploaded for another ask: this one uploads only if that one fails.
      if (earlier) this.track(this.uploadUnless(earlier, key, answer.mediaId, answer.uploadUrl, item, held));
      else this.startUpload(key, answer.mediaId, answer.uploadUrl, item, held);
      return { mediaId: answer.mediaId };
    } finally {
      if (!uploading) this.done(held);
    }
  }

  private async ask(
    item: MediaItem,
    turn: AskTurn,
  ): Promise<{ mediaId: string; uploadUrl: string | null } | { failure: string; unsent?: true }> {
    const body = JSON.stringify({
      traceId: item.traceId,
      observationId: item.observationId,
      contentType: item.contentType,
      contentLength: item.bytes.byteLength,
      sha256Hash: item.sha256Hash,
      field: item.field,
    });
    let unwanted = false;
    const res = await this.attempts('ask', () =>
      this.asks.run(() => {
        // Its span left while it waited for its turn: nothing to link the media to.
        if (!turn.wanted()) {
          unwanted = true;
          return Promise.resolve(undefined);
        }
        turn.leave();
        return this.request('POST', this.askUrl, { ...this.options.headers, 'content-type': 'application/json' }, body);
      }),
    );
    if (unwanted) return { failure: 'its span left before the ask was sent', unsent: true };
    if ('failure' in res) return res;
    let parsed: { mediaId?: unknown; uploadUrl?: unknown };
    try {
      parsed = JSON.parse(res.text) as typeof parsed;
    } catch {
      return { failure: 'the answer to the ask is not JSON' };
    }
    const { mediaId, uploadUrl } = parsed ?? {};
    if (typeof mediaId !== 'string' || !MEDIA_ID.test(mediaId)) {
      return { failure: `the answer to the ask has no usable mediaId (${describeValue(mediaId)}: not one path segment)` };
    }
    // No upload URL (null, or left out as some servers do): the server holds these bytes.
    if (uploadUrl === null || uploadUrl === undefined) return { mediaId, uploadUrl: null };
    if (!isHttpUrl(uploadUrl))
      return { failure: `the answer to the ask has an uploadUrl that is not an http(s) URL (${describeValue(uploadUrl)})` };
    return { mediaId, uploadUrl };
  }

  /** Uploads `item`, known by `key` while under way; whether its bytes arrived. */
  private startUpload(key: string, mediaId: string, url: string, item: MediaItem, held: HeldBytes): Promise<boolean> {
    const upload = this.track(this.upload(mediaId, url, item, held)).then((uploaded) => uploaded === true);
    this.uploading.set(key, upload);
    void upload.then(() => {
      if (this.uploading.get(key) === upload) this.uploading.delete(key);
    });
    return upload;
  }

  /** Waits for the upload of the same bytes under way; uploads them itself when that one failed. */
  private async uploadUnless(
    earlier: Promise<boolean>,
    key: string,
    mediaId: string,
    url: string,
    item: MediaItem,
    held: HeldBytes,
  ): Promise<void> {
    let under = earlier;
    for (;;) {
      if (await under) {
        this.outage.delivered(1, this.inProgress <= 1);
        this.done(held);
        return;
      }
      const next = this.uploading.get(key);
      // Another waiter uploads them again already: its outcome is this one's.
      if (next && next !== under) under = next;
      else break;
    }
    await this.startUpload(key, mediaId, url, item, held);
  }

  private async upload(mediaId: string, url: string, item: MediaItem, held: HeldBytes): Promise<boolean> {
    try {
      const started = Date.now();
      const headers = { 'content-type': item.contentType, 'x-amz-checksum-sha256': item.sha256Hash };
      const timeoutMs = this.options.timeoutMs + Math.ceil(item.bytes.byteLength / 1048576) * 1000;
      const res = await this.attempts('upload', () => this.uploads.run(() => this.request('PUT', url, headers, item.bytes, timeoutMs)));
      const report = {
        uploadedAt: new Date().toISOString(),
        uploadHttpStatus: 'failure' in res ? (res.status ?? 0) : res.status,
        uploadHttpError: 'failure' in res ? res.failure : null,
        uploadTimeMs: Date.now() - started,
      };
      if ('failure' in res) this.lose(`the media upload failed (${res.failure})`);
      const reported = await this.attempts('report', () =>
        this.request(
          'PATCH',
          `${this.askUrl}/${encodeURIComponent(mediaId)}`,
          { ...this.options.headers, 'content-type': 'application/json' },
          JSON.stringify(report),
        ),
      );
      if ('failure' in reported) {
        if (!('failure' in res)) this.lose(`the media upload's report was not accepted (${reported.failure})`);
      } else if (!('failure' in res)) this.outage.delivered(1, this.inProgress <= 1);
      return !('failure' in res);
    } finally {
      this.done(held);
    }
  }

  /**
   * `send` until it is answered 2xx, at most `ATTEMPTS` times (once in the exit flush). What is
   * retried is what every kind retries (`delivery/outcome.ts`: network errors, 401, 408, 429,
   * 5xx), after the server's `Retry-After` or a backoff; anything else fails at once.
   */
  private async attempts(
    step: string,
    send: () => Promise<PostResult | undefined>,
  ): Promise<PostResult | { failure: string; status?: number }> {
    for (let attempt = 0; ; attempt++) {
      let outcome: SendOutcome;
      let reason: string;
      let status: number | undefined;
      try {
        const res = await send();
        // Not sent (nobody wants it any more): nothing to retry.
        if (!res) return { failure: 'not sent' };
        this.reached = true;
        outcome = answerOutcome(res, KEYS_HINT);
        if (outcome.kind === 'delivered') return res;
        status = res.status;
        reason = `${step}: HTTP ${res.status}${res.status === 401 ? ` (${KEYS_HINT})` : res.text ? `: ${res.text.slice(0, 200)}` : ''}`;
      } catch (err) {
        const failed = failureOutcome(err, this.reached);
        outcome = failed;
        reason = `${step}: ${'reason' in failed ? failed.reason : String(err)}`;
      }
      if (outcome.kind !== 'retry' || this.abandoned || this.finalTry || attempt + 1 >= ATTEMPTS) return { failure: reason, status };
      this.outage.failed(reason, ATTEMPTS * this.options.timeoutMs);
      await this.pause(outcome.retryAfterMs ?? backoffDelay(attempt, { initialDelayMs: this.options.backoffMs ?? 200, maxDelayMs: 2_000 }));
    }
  }

  private request(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | Uint8Array,
    timeoutMs = this.options.timeoutMs,
  ) {
    if (this.abandoned) return Promise.reject(new Error('abandoned at the deadline'));
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    const controller = new AbortController();
    this.inFlight.add(controller);
    return this.options
      .send({ method, url, headers, body: bytes, timeoutMs, signal: controller.signal })
      .finally(() => this.inFlight.delete(controller));
  }

  private done(held: HeldBytes): void {
    this.inProgress--;
    this.releaseBytes(held);
    if (this.inProgress === 0) this.abandoned = false;
  }

  /** Waits `ms` (an unref'd timer: the process may end meanwhile; the exit flush bounds that), less when abandoned. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waits.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.drains.cap(ms));
      (timer as { unref?: () => void }).unref?.();
      this.waits.add(wake);
    });
  }

  private track<T>(p: Promise<T>): Promise<T> {
    const tracked = p.catch((err: unknown) => {
      logger.debug(`media upload: ${String(err)}`);
      return { failure: String(err) } as T;
    });
    this.work.add(tracked);
    void tracked.finally(() => this.work.delete(tracked));
    return tracked;
  }
}
