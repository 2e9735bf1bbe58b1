/**
 * The client side of the media upload protocol (wire contract 5): for each medium of an
 * observation, an ask (`POST /api/public/media`) whose answer names the media id (the server
 * knows it: it answers the same id for the same bytes, and links it to the observation), then,
 * when the server asks for the bytes (`uploadUrl`), an upload (`PUT`) and a report (`PATCH`).
 * Bytes the server holds are not asked for again, and bytes being uploaded are never uploaded
 * twice at once: the same image in a second observation makes no second PUT. That protocol and
 * that dedupe are all this file holds: every request goes through a `Sender` of requests
 * (`delivery/sender.ts`), which bounds asks and uploads in flight (lanes) and the bytes held,
 * retries each request a few times, never for ever, and is the delivery kind a flush or shutdown
 * waits for within its one deadline; a failure is counted in its outage log (unit `media`).
 */
import type { Send } from '../../delivery/node-post.js';
import type { PostResult } from '../../delivery/post.js';
import type { SendOutcome } from '../../delivery/outcome.js';
import { Sender, type Tried } from '../../delivery/sender.js';
import { logger } from '../../util/logger.js';

/** Largest medium uploaded: 50 MiB (wire contract 5); the media rule writes a larger one cut (`media-text.ts`). */
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

/** One ask under way: when it left (or settled without leaving), and its answer. */
export interface MediaAsk {
  /** Resolves (true) when the ask's first attempt is sent, or when it settled without one. */
  departed: Promise<boolean>;
  /** Never rejects. */
  answer: Promise<MediaAnswer>;
}

/** Attempts per request (ask, upload, report) while no last try is under way. */
const ATTEMPTS = 3;
/** Default most bytes held for asks and uploads not done yet. */
const MAX_HELD_BYTES = 128 * 1024 * 1024;
/**
 * Most asks in flight at once: small JSON requests on keep-alive sockets; a burst of 300 images at
 * a server answering in 200 ms is asked for in about 4 s.
 */
export const MAX_CONCURRENT_ASKS = 16;
/** A media id is one path segment of the report's URL: unreserved characters, not `.` or `..`. */
const MEDIA_ID = /^(?!\.{1,2}$)[\w.~-]{1,200}$/;
const KEYS_HINT = 'the server refused the keys: check OBS_PUBLIC_KEY/OBS_SECRET_KEY';

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

export class MediaUploads {
  /** Every request of the protocol, and the media held meanwhile: what a drain waits for. */
  readonly delivery: Sender;
  /** Uploads under way, by content: each says whether its bytes arrived. */
  private readonly uploading = new Map<string, Promise<boolean>>();

  constructor(private readonly options: MediaUploadsOptions) {
    this.delivery = new Sender({
      unit: 'media',
      quiet: true,
      target: this.askUrl,
      keysHint: KEYS_HINT,
      // Held bytes are the buffer's bound; a request of its own is tried `ATTEMPTS` times.
      limits: {
        maxBufferBytes: options.maxHeldBytes ?? MAX_HELD_BYTES,
        maxBufferItems: Number.POSITIVE_INFINITY,
        maxAttempts: ATTEMPTS,
        retryBudgetMs: Number.POSITIVE_INFINITY,
        backoffMs: options.backoffMs ?? 200,
        maxBackoffMs: 2_000,
      },
      lanes: { ask: MAX_CONCURRENT_ASKS, upload: options.maxConcurrentUploads ?? 4 },
      reportEveryMs: options.reportEveryMs,
      retriedForMs: ATTEMPTS * options.timeoutMs,
    });
  }

  private get askUrl(): string {
    return `${this.options.baseUrl}/api/public/media`;
  }

  /**
   * Holds `size` bytes for a medium about to be decoded, or undefined (the loss counted) when
   * they would pass the limit: then the medium is neither decoded nor hashed. `releaseBytes` it
   * once its asks started.
   */
  holdBytes(size: number): HeldBytes | undefined {
    if (!this.delivery.hold(0, size)) {
      this.lose(`${((this.options.maxHeldBytes ?? MAX_HELD_BYTES) / 1048576).toFixed(1)} MiB of media are waiting for upload already`);
      return undefined;
    }
    return { size, holders: 1 };
  }

  releaseBytes(held: HeldBytes): void {
    if (--held.holders === 0) this.delivery.release(0, held.size);
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
    // One medium in progress until its ask, upload and report ended: a drain counts and waits for it.
    const finish = this.delivery.begin();
    const done = () => {
      finish();
      this.releaseBytes(held);
    };
    let leave!: (left: boolean) => void;
    const departed = new Promise<boolean>((resolve) => (leave = resolve));
    const answer = this.askThenUpload(key, item, done, wanted, () => leave(true)).catch((err: unknown): MediaAnswer => {
      logger.debug(`media upload: ${String(err)}`);
      return { failure: String(err) };
    });
    void answer.then(() => leave(true));
    return { departed, answer };
  }

  /** Counts media that leave their span as the failure marker, and why (the outage log sums them into its lines). */
  lose(why: string, count = 1): void {
    this.delivery.log?.lost(count, why);
  }

  // --- the protocol ------------------------------------------------------------------------

  private async askThenUpload(
    key: string,
    item: MediaItem,
    done: () => void,
    wanted: () => boolean,
    leave: () => void,
  ): Promise<MediaAnswer> {
    let uploading = false;
    try {
      const answer = await this.ask(item, wanted, leave);
      if ('failure' in answer) {
        if (!answer.quiet) this.lose(`the media upload was not accepted (${answer.failure})`);
        return answer;
      }
      if (answer.uploadUrl === null) {
        this.delivered();
        return { mediaId: answer.mediaId };
      }
      uploading = true;
      const earlier = this.uploading.get(key);
      // The same bytes being uploaded for another ask: this one uploads only if that one fails.
      if (earlier) void this.uploadUnless(earlier, key, answer.mediaId, answer.uploadUrl, item, done);
      else void this.startUpload(key, answer.mediaId, answer.uploadUrl, item, done);
      return { mediaId: answer.mediaId };
    } finally {
      if (!uploading) done();
    }
  }

  private async ask(
    item: MediaItem,
    wanted: () => boolean,
    leave: () => void,
  ): Promise<{ mediaId: string; uploadUrl: string | null } | { failure: string; quiet?: true }> {
    const body = JSON.stringify({
      traceId: item.traceId,
      observationId: item.observationId,
      contentType: item.contentType,
      contentLength: item.bytes.byteLength,
      sha256Hash: item.sha256Hash,
      field: item.field,
    });
    const end = await this.step('ask', 'ask', (signal) => {
      // Its span left while it waited for its turn: nothing to link the media to.
      if (!wanted()) return Promise.resolve(undefined);
      leave();
      return this.request('POST', this.askUrl, body, signal);
    });
    if (!end.ok) {
      if (end.unsent) return { failure: 'its span left before the ask was sent', quiet: true };
      // Given up by a drain: its line says it.
      return end.gaveUp ? { failure: end.reason, quiet: true } : { failure: end.reason };
    }
    let parsed: { mediaId?: unknown; uploadUrl?: unknown };
    try {
      parsed = JSON.parse(end.answer!.text) as typeof parsed;
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
  private startUpload(key: string, mediaId: string, url: string, item: MediaItem, done: () => void): Promise<boolean> {
    const upload = this.upload(mediaId, url, item, done).catch((err: unknown) => {
      logger.debug(`media upload: ${String(err)}`);
      return false;
    });
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
    done: () => void,
  ): Promise<void> {
    let under = earlier;
    for (;;) {
      if (await under) {
        this.delivered();
        done();
        return;
      }
      const next = this.uploading.get(key);
      // Another waiter uploads them again already: its outcome is this one's.
      if (next && next !== under) under = next;
      else break;
    }
    await this.startUpload(key, mediaId, url, item, done);
  }

  private async upload(mediaId: string, url: string, item: MediaItem, done: () => void): Promise<boolean> {
    try {
      const started = Date.now();
      const headers = { 'content-type': item.contentType, 'x-amz-checksum-sha256': item.sha256Hash };
      const timeoutMs = this.options.timeoutMs + Math.ceil(item.bytes.byteLength / 1048576) * 1000;
      const put = await this.step('upload', 'upload', (signal) => this.request('PUT', url, item.bytes, signal, headers, timeoutMs));
      const report = {
        uploadedAt: new Date().toISOString(),
        uploadHttpStatus: put.answer?.status ?? 0,
        uploadHttpError: put.ok ? null : put.reason,
        uploadTimeMs: Date.now() - started,
      };
      if (!put.ok && !put.gaveUp) this.lose(`the media upload failed (${put.reason})`);
      const reportUrl = `${this.askUrl}/${encodeURIComponent(mediaId)}`;
      const reported = await this.step('report', undefined, (signal) => this.request('PATCH', reportUrl, JSON.stringify(report), signal));
      if (!reported.ok) {
        if (put.ok && !reported.gaveUp) this.lose(`the media upload's report was not accepted (${reported.reason})`);
      } else if (put.ok) this.delivered();
      return put.ok;
    } finally {
      done();
    }
  }

  /** One request of the protocol through the sender, in `lane` (none: unbounded); `step` names it in its failure. */
  private step(step: string, lane: string | undefined, send: (signal: AbortSignal) => Promise<PostResult | undefined>) {
    return this.delivery.send({ lane, held: 1, send, read: (tried, outcome) => readAs(step, tried, outcome) });
  }

  /** A JSON request with the connection's headers (the ask, the report), or the upload's bytes with `headers` alone. */
  private request(
    method: string,
    url: string,
    body: string | Uint8Array,
    signal: AbortSignal,
    headers = { ...this.options.headers, 'content-type': 'application/json' },
    timeoutMs = this.options.timeoutMs,
  ) {
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    return this.options.send({ method, url, headers, body: bytes, timeoutMs, signal });
  }

  /** A medium reached the server; the last one in progress may end an outage. */
  private delivered(): void {
    this.delivery.log?.delivered(1, this.delivery.pending() <= 1);
  }
}

/**
 * An attempt of `step` as the media upload reads it: what every kind retries (`outcome.ts`:
 * network errors, 401, 408, 429, 5xx) is retried, after the server's `Retry-After` or a backoff;
 * anything else fails at once (a medium is never split: too large is a refusal). The reason names
 * the step and the answer.
 */
function readAs(step: string, tried: Tried, outcome: SendOutcome): SendOutcome {
  if (outcome.kind === 'delivered') return outcome;
  const res = tried.answer;
  const reason = res
    ? `${step}: HTTP ${res.status}${res.status === 401 ? ` (${KEYS_HINT})` : res.text ? `: ${res.text.slice(0, 200)}` : ''}`
    : `${step}: ${outcome.reason}`;
  return outcome.kind === 'too-large' ? { kind: 'refused', reason } : { ...outcome, reason };
}
