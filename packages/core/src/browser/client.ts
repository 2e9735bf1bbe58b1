import { logger } from '../util/logger.js';
import { baseUrlProblem } from '../util/url-credentials.js';
import { SDK_VERSION } from '../util/version.js';
import type { BackoffOptions } from '../util/retry.js';
import { drainWithin } from '../delivery/drain.js';
import { fetchPost } from '../delivery/post.js';
import { ScoreQueue } from '../client/scores/queue.js';
import type { ScoreBody } from '../client/scores/types.js';
import { prepareScore } from '../client/scores/validate.js';
import { bytesToBase64 } from '../util/base64.js';
import { nonNegativeInteger, positive } from '../client/util/numbers.js';

/** Options of `new ObsBrowserClient()`. Only the public key: never ship a secret key to a browser. */
export interface ObsBrowserClientOptions {
  publicKey: string;
  /** Base URL of the obs server. */
  baseUrl: string;
  /** Timeout of one request attempt, in seconds; default 5. */
  timeout?: number;
  /** Retries on network errors, 408, 429 and 5xx; default 3. */
  maxRetries?: number;
  backoff?: BackoffOptions;
  /** Replacement for the global `fetch`. */
  fetch?: typeof fetch;
}

/** `client.score(body)`: queues a score; resolves once the server has answered it, never rejects. */
export interface BrowserScore {
  (body: ScoreBody): Promise<void>;
  /** Resolves when every score queued so far has been answered, or after 15 s (one line says what is left). */
  flush(): Promise<void>;
}

/** The most `score.flush()` waits. */
const FLUSH_TIMEOUT_MS = 15_000;

/** `Basic base64(publicKey:)` with Web APIs only. */
function publicKeyAuth(publicKey: string): string {
  return `Basic ${bytesToBase64(new TextEncoder().encode(`${publicKey}:`))}`;
}

/**
 * Scores from a browser (e.g. user feedback on a trace whose id the server sent in
 * `x-obs-trace-id`), authenticated with the public key only. Scores made in the same tick go
 * in one request of at most 100. Uses no Node built-ins. Never throws.
 */
export class ObsBrowserClient {
  /** Queues a score to `POST /api/public/scores`. */
  readonly score: BrowserScore;

  constructor(options: ObsBrowserClientOptions) {
    const opts: Partial<ObsBrowserClientOptions> = typeof options === 'object' && options !== null ? options : {};
    const publicKey = typeof opts.publicKey === 'string' && opts.publicKey !== '' ? opts.publicKey : undefined;
    const given = typeof opts.baseUrl === 'string' && opts.baseUrl.trim() !== '' ? opts.baseUrl.trim().replace(/\/+$/, '') : undefined;
    const unusable = given ? baseUrlProblem(given, 'baseUrl') : undefined;
    const baseUrl = unusable ? undefined : given;
    let queue: ScoreQueue | undefined;
    if (unusable) {
      logger.warnOnce('obs-browser-client-not-configured', `ObsBrowserClient: ${unusable}; scores are dropped.`);
    } else if (publicKey && baseUrl) {
      const url = `${baseUrl}/api/public/scores`;
      const headers = {
        authorization: publicKeyAuth(publicKey),
        'content-type': 'application/json',
        'x-obs-sdk-name': 'javascript',
        'x-obs-sdk-version': SDK_VERSION,
        'x-obs-public-key': publicKey,
      };
      // flushAt 1: each score is due at the end of its tick, so a burst shares one request.
      queue = new ScoreQueue({
        flushAt: 1,
        flushIntervalMs: 1000,
        maxQueueSize: 1000,
        post: fetchPost(url, headers, opts.fetch),
        target: url,
        timeoutMs: (positive(opts.timeout) ?? 5) * 1000,
        limits: {
          maxAttempts: (nonNegativeInteger(opts.maxRetries) ?? 3) + 1,
          backoffMs: opts.backoff?.initialDelayMs ?? 500,
          maxBackoffMs: opts.backoff?.maxDelayMs ?? 10_000,
        },
      });
    } else {
      logger.warnOnce('obs-browser-client-not-configured', 'ObsBrowserClient needs publicKey and baseUrl; scores are dropped.');
    }

    const score = (body: ScoreBody): Promise<void> => {
      if (!queue) return Promise.resolve();
      try {
        const checked = prepareScore(body);
        if (!checked.ok) {
          logger.error(`Obs dropped an invalid score: ${checked.reason}`);
          return Promise.resolve();
        }
        return queue.enqueue(checked.score);
      } catch {
        return Promise.resolve();
      }
    };
    const flush = async (): Promise<void> => {
      if (queue) await drainWithin([queue], FLUSH_TIMEOUT_MS, { mode: 'flush', label: 'score flush' });
    };
    this.score = Object.assign(score, { flush });
  }
}
