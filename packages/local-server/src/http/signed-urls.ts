/**
 * Short-lived URLs that carry their own permission, as a storage bucket's presigned URLs do:
 * the media upload and download addresses the SDK uses without its keys. Each names one method
 * and one media id, expires, and is signed with the stores' key (kept with the data, so a URL
 * outlives a restart of a server with a data directory).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Signs and checks `?expires=…&signature=…` for one method on one resource. */
export class UrlSigner {
  constructor(private readonly key: Buffer) {}

  /** The query that lets `method` on `resource` until `ttlMs` from now, and when it expires. */
  sign(method: string, resource: string, ttlMs: number): { query: string; expiresAt: Date } {
    const expires = Math.floor((Date.now() + ttlMs) / 1000);
    return { query: `expires=${expires}&signature=${this.signature(method, resource, expires)}`, expiresAt: new Date(expires * 1000) };
  }

  /** Why a request's query does not let it through, or `undefined` when it does. */
  refusal(method: string, resource: string, query: Record<string, string>): string | undefined {
    const expires = Number(query['expires']);
    const given = Buffer.from(query['signature'] ?? '');
    const wanted = Buffer.from(this.signature(method, resource, expires));
    if (!Number.isInteger(expires) || given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
      return 'the signature does not match (use the URL the server answered, unchanged)';
    }
    if (expires * 1000 < Date.now()) return 'the URL has expired (ask for a new one)';
    return undefined;
  }

  private signature(method: string, resource: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${method}\n${resource}\n${expires}`).digest('base64url');
  }
}
