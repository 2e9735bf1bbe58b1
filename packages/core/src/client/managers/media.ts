import { logger } from '../../util/logger.js';
import type { ObsApiClient } from '../api/client.js';
import { withTracingSuppressed } from '../../tracing/suppress.js';
import { bytesToBase64 } from '../../util/base64.js';
import { describeError } from '../util/describe.js';
import { findMediaReferences, replaceMediaReferences, type MediaReference } from './mediaReferences.js';

/** Arguments of `media.resolveReferences`. */
export interface ResolveMediaReferencesParams<T> {
  /** Any JSON-like value whose strings may hold media references. */
  obj: T;
  /** What a reference becomes; only data URIs are supported. */
  resolveWith: 'base64DataUri';
  /** How deep to look into nested objects; default 10. */
  maxDepth?: number;
}

/** `client.media`: turns media references back into content (replaces `resolveMediaReferences`). */
export class MediaManager {
  constructor(
    private readonly api: ObsApiClient,
    private readonly fetchImpl: typeof fetch | undefined,
  ) {}

  /**
   * A copy of `obj` with every `@@@obsMedia:…@@@` reference replaced by a base64 data URI of
   * the media. A reference that cannot be resolved is left as it is and logged as a warning.
   */
  async resolveReferences<T>(params: ResolveMediaReferencesParams<T>): Promise<T> {
    const { obj, maxDepth = 10 } = params;
    const references = findMediaReferences(obj, maxDepth);
    if (references.length === 0) return obj;
    const replacements = new Map<string, string>();
    await Promise.all(
      references.map(async (ref) => {
        try {
          replacements.set(ref.reference, await this.dataUri(ref));
        } catch (err) {
          logger.warn(`Obs could not resolve media ${ref.mediaId}: ${describeError(err)}`);
        }
      }),
    );
    return replaceMediaReferences(obj, replacements, maxDepth);
  }

  private async dataUri(ref: MediaReference): Promise<string> {
    const media = await this.api.media.get(ref.mediaId);
    if (typeof media?.url !== 'string') throw new Error('the media record has no download url');
    const { url } = media;
    const response = await withTracingSuppressed(() => (this.fetchImpl ?? fetch)(url));
    if (!response.ok) throw new Error(`download failed with HTTP ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const type = media.contentType ?? ref.contentType ?? response.headers.get('content-type') ?? 'application/octet-stream';
    return `data:${type};base64,${bytesToBase64(bytes)}`;
  }
}
