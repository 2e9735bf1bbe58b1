/**
 * The media upload protocol (wire contract 5): `POST /api/public/media` asks for an upload
 * (`uploadUrl: null` when the server already holds these bytes), `PUT` on the upload URL (this
 * server, signed, no keys) brings the bytes, checked against the declared length, type and
 * SHA-256, `PATCH /api/public/media/{id}` reports how the upload went, `GET
 * /api/public/media/{id}` answers a signed download URL that serves the bytes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type Answer, answer, objectBody, refuse } from '../http/answer.js';
import { headerValue } from '../http/body.js';
import type { UrlSigner } from '../http/signed-urls.js';
import type { MediaStore, StoredMedia } from '../stores/types.js';
import type { RecordedRequest } from '../types.js';
import type { ApiRoute } from './api-route.js';

/** Where uploads are asked for, reported and read (`/{mediaId}`). */
export const MEDIA_PATH = '/api/public/media';
/** Where the bytes go and come from: `PUT` and `GET /media/{mediaId}`, with a signed query. */
export const MEDIA_BYTES_PATH = '/media';
/** Largest media accepted: 50 MiB. */
export const MAX_MEDIA_BYTES = 50 * 1024 * 1024;
/** How long an upload or download URL lasts. */
const URL_TTL_MS = 60 * 60 * 1000;
const FIELDS = ['input', 'output', 'metadata'];

/** What the media routes need. */
export interface MediaDeps {
  store: MediaStore;
  signer: UrlSigner;
  /** Told which media id (and upload URL) an ask was answered, for the tests' read-back. */
  asked(record: RecordedRequest, mediaId: string, uploadUrl: string | null): void;
}

/** The media routes. */
export function mediaRoutes({ store, signer, asked }: MediaDeps): ApiRoute[] {
  /** A signed URL on the host the client used to reach this server (the host check vouched for it). */
  const signedUrl = (record: RecordedRequest, method: 'PUT' | 'GET', mediaId: string) => {
    const { query, expiresAt } = signer.sign(method, mediaId, URL_TTL_MS);
    return { url: `http://${headerValue(record.headers.host)}${MEDIA_BYTES_PATH}/${encodeURIComponent(mediaId)}?${query}`, expiresAt };
  };
  return [
    {
      methods: ['POST'],
      path: MEDIA_PATH,
      handle: (record) => {
        const ask = parseAsk(record.json);
        if (typeof ask === 'string') return refuse(400, ask);
        const held = store.find(ask.sha256Hash, ask.contentType);
        if (held && held.contentLength !== ask.contentLength) {
          return refuse(400, `contentLength ${ask.contentLength} differs from the ${held.contentLength} bytes held for this sha256Hash`);
        }
        const media: StoredMedia = held ?? {
          mediaId: randomBytes(16).toString('base64url'),
          contentType: ask.contentType,
          contentLength: ask.contentLength,
          sha256Hash: ask.sha256Hash,
          createdAt: new Date().toISOString(),
          uploadedAt: null,
          report: null,
        };
        if (!held) store.save(media);
        // One row per trace, observation and field, kept once: an ask costs the same however many use the bytes.
        store.link(media.mediaId, { traceId: ask.traceId, observationId: ask.observationId, field: ask.field });
        const uploadUrl = media.uploadedAt === null ? signedUrl(record, 'PUT', media.mediaId).url : null;
        asked(record, media.mediaId, uploadUrl);
        return answer(200, { mediaId: media.mediaId, uploadUrl });
      },
    },
    {
      methods: ['PUT'],
      path: `${MEDIA_BYTES_PATH}/:mediaId`,
      auth: 'none',
      handle: (record, { mediaId }) => upload(store, signer, record, mediaId!),
    },
    {
      methods: ['GET'],
      path: `${MEDIA_BYTES_PATH}/:mediaId`,
      auth: 'none',
      handle: ({ query }, { mediaId }) => {
        const refusal = signer.refusal('GET', mediaId!, query);
        if (refusal) return refuse(403, refusal);
        const media = store.get(mediaId!);
        const bytes = store.bytes(mediaId!);
        return media && bytes ? mediaContent(media, bytes) : refuse(404, `media ${JSON.stringify(mediaId)} not found`);
      },
    },
    {
      methods: ['PATCH'],
      path: `${MEDIA_PATH}/:mediaId`,
      handle: ({ json }, { mediaId }) => {
        const media = store.get(mediaId!);
        if (!media) return refuse(404, `media ${JSON.stringify(mediaId)} not found`);
        const report = parseReport(json);
        if (typeof report === 'string') return refuse(400, report);
        store.save({ ...media, report });
        return answer(204);
      },
    },
    {
      methods: ['GET'],
      path: `${MEDIA_PATH}/:mediaId`,
      handle: (record, { mediaId }) => {
        const media = store.get(mediaId!);
        if (!media) return refuse(404, `media ${JSON.stringify(mediaId)} not found`);
        if (media.uploadedAt === null) return refuse(404, `media ${JSON.stringify(mediaId)} has not been uploaded`);
        const { url, expiresAt } = signedUrl(record, 'GET', media.mediaId);
        const { contentType, contentLength, uploadedAt } = media;
        return answer(200, { mediaId: media.mediaId, contentType, contentLength, uploadedAt, url, urlExpiry: expiresAt.toISOString() });
      },
    },
  ];
}

/** Media bytes as an answer: their own type, never sniffed, never run as a page, inline only when a browser shows them as media. */
export function mediaContent(media: StoredMedia, bytes: Buffer): Answer {
  const type = media.contentType.toLowerCase();
  const inline = /^(image|audio|video)\//.test(type) && !type.startsWith('image/svg');
  return answer(200, bytes, {
    'content-type': media.contentType,
    'content-disposition': inline ? 'inline' : `attachment; filename="${media.mediaId}"`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
  });
}

function upload(store: MediaStore, signer: UrlSigner, record: RecordedRequest, mediaId: string): Answer {
  const refusal = signer.refusal('PUT', mediaId, record.query);
  if (refusal) return refuse(403, refusal);
  const media = store.get(mediaId);
  if (!media) return refuse(404, `media ${JSON.stringify(mediaId)} not found`);
  const type = baseType(headerValue(record.headers['content-type']) ?? '');
  if (type !== baseType(media.contentType)) {
    return refuse(400, `Content-Type ${JSON.stringify(type)} is not the ${JSON.stringify(media.contentType)} the upload was asked for`);
  }
  if (record.body.length !== media.contentLength) {
    return refuse(400, `the body has ${record.body.length} bytes, not the ${media.contentLength} the upload was asked for`);
  }
  const checksum = headerValue(record.headers['x-amz-checksum-sha256']);
  if (checksum !== media.sha256Hash) {
    return refuse(400, `x-amz-checksum-sha256 ${JSON.stringify(checksum ?? null)} is not the sha256Hash the upload was asked for`);
  }
  const actual = createHash('sha256').update(record.body).digest('base64');
  if (actual !== checksum) return refuse(400, `BadDigest: the body's SHA-256 is ${actual}, not the declared ${checksum}`);
  store.saveBytes(mediaId, record.body);
  store.save({ ...media, uploadedAt: media.uploadedAt ?? new Date(record.receivedAt).toISOString() });
  return answer(200, '', { 'x-amz-checksum-sha256': actual });
}

interface Ask {
  traceId: string;
  observationId: string | null;
  contentType: string;
  contentLength: number;
  sha256Hash: string;
  field: string;
}

/** The ask, or why it is not one. */
function parseAsk(json: unknown): Ask | string {
  const body = objectBody(json);
  if (!body) return 'body must be a JSON object { traceId, observationId?, contentType, contentLength, sha256Hash, field }';
  const { traceId, observationId, contentType, contentLength, sha256Hash, field } = body;
  if (typeof traceId !== 'string' || traceId === '') return 'traceId is required and must be a non-empty string';
  if (observationId !== undefined && observationId !== null && typeof observationId !== 'string') return 'observationId must be a string';
  if (typeof contentType !== 'string' || !/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(contentType)) return 'contentType must be a MIME type';
  if (typeof contentLength !== 'number' || !Number.isInteger(contentLength) || contentLength < 0) {
    return 'contentLength must be a non-negative integer';
  }
  if (contentLength > MAX_MEDIA_BYTES) return `media larger than ${MAX_MEDIA_BYTES} bytes (50 MiB) is not accepted, got ${contentLength}`;
  if (typeof sha256Hash !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(sha256Hash))
    return 'sha256Hash must be the base64 SHA-256 of the bytes';
  if (typeof field !== 'string' || !FIELDS.includes(field)) return `field must be one of ${FIELDS.join(', ')}`;
  return { traceId, observationId: observationId ?? null, contentType, contentLength, sha256Hash, field };
}

/** The report, or why it is not one. */
function parseReport(json: unknown): NonNullable<StoredMedia['report']> | string {
  const body = objectBody(json);
  if (!body) return 'body must be a JSON object { uploadedAt, uploadHttpStatus, uploadHttpError?, uploadTimeMs? }';
  const { uploadedAt, uploadHttpStatus, uploadHttpError, uploadTimeMs } = body;
  if (typeof uploadedAt !== 'string' || Number.isNaN(Date.parse(uploadedAt))) return 'uploadedAt must be an ISO 8601 time';
  if (typeof uploadHttpStatus !== 'number' || !Number.isInteger(uploadHttpStatus)) return 'uploadHttpStatus must be an integer';
  if (uploadHttpError !== undefined && uploadHttpError !== null && typeof uploadHttpError !== 'string')
    return 'uploadHttpError must be a string';
  if (uploadTimeMs !== undefined && uploadTimeMs !== null && (typeof uploadTimeMs !== 'number' || !(uploadTimeMs >= 0))) {
    return 'uploadTimeMs must be a non-negative number';
  }
  return { uploadedAt, uploadHttpStatus, uploadHttpError: uploadHttpError ?? null, uploadTimeMs: uploadTimeMs ?? null };
}

function baseType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}
