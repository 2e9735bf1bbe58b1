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
import type { Leftover, DeliveryKind } from '../../delivery/drain.js';
import type { Send } from '../../delivery/node-post.js';
import type { PostResult } from '../../delivery/post.js';
import { answerOutcome, failureOutcome, type SendOutcome } from '../../delivery/outcome.js';
import { OutageLog } from '../../delivery/outage-log.js';
import { logger } from '../../util/logger.js';
import { backoffDelay } from '../../util/retry.js';
import { Slots } from '../../util/slots.js';

/** Largest medium uploaded: 50 MiB (wire contract 5). */
export const MAX_MEDIA_BYTES = 50 * 1024 * 1024;

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

/** Attempts per request (ask, upload, report) while no last try is under way. */
const ATTEMPTS = 3;
/** Most asks in flight at once. */
const MAX_CONCURRENT_ASKS = 8;
const MEDIA_ID = /^[\w.~-]{1,200}$/;
const KEYS_HINT = 'the server refused the keys: check OBS_PUBLIC_KEY/OBS_SECRET_KEY';

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
   * The media id of `item` (whose bytes `held` holds), once the server answers the ask (the
   * upload and report follow in the background). Never rejects.
   */
  reference(item: MediaItem, held: HeldBytes): Promise<MediaAnswer> {
    const key = `${item.sha256Hash} ${item.contentType}`;
    if (item.bytes.byteLength > MAX_MEDIA_BYTES) return Promise.resolve({ failure: 'larger than 50 MiB' });
    held.holders++;
    return this.track(this.askThenUpload(key, item, held));
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

  // --- the protocol ------------------------------------------------------------------------

  private async askThenUpload(key: string, item: MediaItem, held: HeldBytes): Promise<MediaAnswer> {
    this.inProgress++;
    let uploading = false;
    try {
      const answer = await this.ask(item);
      if ('failure' in answer) {
        this.lose(`the media upload was not accepted (${answer.failure})`);
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

  private async ask(item: MediaItem): Promise<{ mediaId: string; uploadUrl: string | null } | { failure: string }> {
    const body = JSON.stringify({
      traceId: item.traceId,
      observationId: item.observationId,
      contentType: item.contentType,
      contentLength: item.bytes.byteLength,
      sha256Hash: item.sha256Hash,
      field: item.field,
    });
    const res = await this.attempts('ask', () =>
      this.asks.run(() => this.request('POST', this.askUrl, { ...this.options.headers, 'content-type': 'application/json' }, body)),
    );
    if ('failure' in res) return res;
    try {
      const parsed = JSON.parse(res.text) as { mediaId?: unknown; uploadUrl?: unknown };
      const { mediaId, uploadUrl } = parsed;
      if (typeof mediaId !== 'string' || !MEDIA_ID.test(mediaId)) return { failure: 'the answer to the ask has no usable mediaId' };
      // No upload URL (null, or left out as some servers do): the server holds these bytes.
      if (uploadUrl === null || uploadUrl === undefined) return { mediaId, uploadUrl: null };
      if (typeof uploadUrl !== 'string') return { failure: 'the answer to the ask has an uploadUrl that is not a URL' };
      return { mediaId, uploadUrl };
    } catch {
      return { failure: 'the answer to the ask is not JSON' };
    }
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
  private async attempts(step: string, send: () => Promise<PostResult>): Promise<PostResult | { failure: string; status?: number }> {
    for (let attempt = 0; ; attempt++) {
      let outcome: SendOutcome;
      let reason: string;
      let status: number | undefined;
      try {
        const res = await send();
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

  private lose(why: string): void {
    if (this.finalTry) this.lostInFinalTry++;
    // What a drain abandoned is said in its own line.
    if (!this.abandoned) this.outage.lost(1, why);
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
      const timer = setTimeout(wake, ms);
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
