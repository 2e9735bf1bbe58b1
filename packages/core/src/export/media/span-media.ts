/**
 * The export's media step: between a span's end and its encoding, the media in its attributes
 * (`find-media.ts`) is decoded, hashed and asked for (`media-uploads.ts`), and each medium is
 * replaced by its reference, or by the failure marker when the ask failed or did not answer in
 * time (never by its base64). The span waits for its asks, at most `waitMs`: the batch queue
 * holds it (`ExportSteps.hold`) and encodes it once they are answered; the uploads themselves
 * go on after it left. It runs in the batch queue's turn, never inside the app's `span.end()`;
 * a span without media costs an `indexOf` per attribute (and a sparse probe of long ones).
 */
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '../../tracing/sdk-types.js';
import { capturedBinaries, dropCapturedBinaries } from '../../tracing/media-capture.js';
import { MEDIA_STATE } from '../../tracing/span-slots.js';
import { logger } from '../../util/logger.js';
import { within } from '../../util/within.js';
import { decodeBase64 } from './base64.js';
import { hashMedia } from './hash.js';
import { findMedia, type MediaSpot } from './find-media.js';
import { type HeldBytes, MAX_MEDIA_BYTES, type MediaItem, type MediaUploads } from './media-uploads.js';
import { mediaFailedMarker, mediaReference } from './reference.js';

/** Default longest wait of a span for its media's asks, in ms. */
export const MEDIA_WAIT_MS = 5_000;

/** Media found in one attribute (`index`: the element of a string array, -1 for a string). */
interface FoundIn {
  key: string;
  index: number;
  text: string;
  spots: MediaSpot[];
}

interface MediaState {
  found: FoundIn[];
  /** What each spot becomes, once known. */
  replacements: Map<MediaSpot, string>;
  done: boolean;
  wait?: Promise<void>;
}

/** One place of a medium in the span's attributes. */
interface MediumSpot {
  spot: MediaSpot;
  field: MediaItem['field'];
  text: string;
}

type Slotted = { [MEDIA_STATE]?: MediaState };

export class SpanMedia {
  /** Oversized media said once each (by type and size), at most this many remembered. */
  private readonly saidTooLarge = new Set<string>();

  /** `uploads` undefined: media is not uploaded (binary data is written as its description). */
  constructor(
    private readonly uploads: MediaUploads | undefined,
    private readonly waitMs = MEDIA_WAIT_MS,
  ) {}

  /** What the span waits for before it is encoded (its media's asks), or undefined: nothing. */
  hold(span: ReadableSpan): Promise<void> | undefined {
    const slot = span as Slotted;
    const state = slot[MEDIA_STATE];
    if (state) return state.done ? undefined : state.wait;
    const binaries = capturedBinaries(span);
    // Without uploads only binary data needs its tokens written back as descriptions.
    if (!this.uploads && !binaries) return undefined;
    const found = scan(span.attributes, binaries, this.uploads !== undefined);
    if (!found) return undefined;
    const fresh: MediaState = { found, replacements: new Map(), done: !this.uploads };
    slot[MEDIA_STATE] = fresh;
    if (fresh.done) return undefined;
    fresh.wait = this.resolve(span, fresh).then(
      () => {
        fresh.done = true;
      },
      (err: unknown) => {
        fresh.done = true;
        logger.debug(`media of span "${span.name}": ${String(err)}`);
      },
    );
    return fresh.wait;
  }

  /** Writes references (markers where none is known) in place of the span's media, in place. */
  apply(span: ReadableSpan): void {
    const slot = span as Slotted;
    const state = slot[MEDIA_STATE];
    // The app's binary data is written as its reference or description: the span lets go of it.
    dropCapturedBinaries(span);
    if (!state || state.found.length === 0) return;
    const attributes = span.attributes as Attributes;
    for (const { key, index, text, spots } of state.found) {
      const current = attributes[key];
      const replaced = rewrite(text, spots, (spot) => state.replacements.get(spot) ?? this.fallback(spot));
      if (index === -1) {
        if (current === text) attributes[key] = replaced;
      } else if (Array.isArray(current) && current[index] === text) {
        const copy = current.slice() as string[];
        copy[index] = replaced;
        attributes[key] = copy;
      }
    }
    // The bytes and texts may go now (a spot of binary data holds the app's bytes; an answer
    // arriving later is not kept).
    state.found = [];
    state.replacements = new Map();
    state.done = true;
  }

  /** What a spot becomes without an answer: the marker, or with uploads off the description of binary data. */
  private fallback(spot: MediaSpot): string {
    if (!this.uploads) return spot.binary?.description ?? '';
    return mediaFailedMarker(spot.contentType, spot.byteLength);
  }

  private async resolve(span: ReadableSpan, state: MediaState): Promise<void> {
    const deadline = Date.now() + this.waitMs;
    // One medium may stand in several attributes (the AI SDK's raw and obs's mapped input): decoded, hashed and asked once per field.
    const media = new Map<string, { spots: MediumSpot[] }>();
    for (const { key, text, spots } of state.found) {
      const field = fieldOf(key);
      for (const spot of spots) {
        if (spot.cut || spot.byteLength > MAX_MEDIA_BYTES) {
          if (!spot.cut) this.sayTooLarge(spot);
          continue;
        }
        const content = spot.binary ? binaryKey(spot.binary.bytes) : text.slice(spot.b64Start, spot.b64End);
        let medium = media.get(content);
        if (!medium) media.set(content, (medium = { spots: [] }));
        medium.spots.push({ spot, field, text });
      }
    }
    // Each medium's whole job (decoding, hashing, its asks) is bounded: a slow hash worker holds the span no longer than an ask.
    await Promise.all(
      [...media.values()].map(({ spots }) => within(this.medium(spots, state, span, deadline), Math.max(0, deadline - Date.now()))),
    );
  }

  /** Decodes, hashes and asks for one medium of the span; its answers go to `state.replacements`. */
  private async medium(spots: MediumSpot[], state: MediaState, span: ReadableSpan, deadline: number): Promise<void> {
    const first = spots[0]!;
    // Held before it is decoded: past the limit the marker stands at once, and nothing was decoded or hashed.
    const held = this.uploads!.holdBytes(first.spot.byteLength);
    if (!held) return;
    try {
      await this.decodeAndAsk(spots, state, span, deadline, held);
    } finally {
      this.uploads!.releaseBytes(held);
    }
  }

  private async decodeAndAsk(spots: MediumSpot[], state: MediaState, span: ReadableSpan, deadline: number, held: HeldBytes): Promise<void> {
    const first = spots[0]!;
    const decoded = bytesOf(first.spot, first.text);
    if (decoded.byteLength === 0) return;
    const { bytes, sha256Hash } = await hashMedia(decoded, !first.spot.binary || decoded !== first.spot.binary.bytes);
    // The span left with the marker meanwhile: an ask would link media it does not show.
    if (state.done || Date.now() >= deadline) return;
    const { traceId, spanId } = span.spanContext();
    const fields = [...new Set(spots.map((s) => s.field))];
    await Promise.all(
      fields.map(async (field) => {
        const item = { traceId, observationId: spanId, field, contentType: first.spot.contentType, bytes, sha256Hash };
        const answer = await within(this.uploads!.reference(item, held), Math.max(0, deadline - Date.now()));
        // Past the span's export (`apply`), an answer has nowhere to go.
        if (!answer || !('mediaId' in answer) || state.done) return;
        for (const { spot } of spots.filter((s) => s.field === field)) {
          state.replacements.set(spot, mediaReference(spot.contentType, answer.mediaId, spot.source));
        }
      }),
    );
  }

  private sayTooLarge(spot: MediaSpot): void {
    const key = `${spot.contentType} ${spot.byteLength}`;
    if (this.saidTooLarge.has(key) || this.saidTooLarge.size >= 1000) return;
    this.saidTooLarge.add(key);
    logger.warn(
      `media of ${spot.byteLength} bytes (${spot.contentType}) is larger than the 50 MiB limit: not uploaded, "${mediaFailedMarker(spot.contentType, spot.byteLength)}" stands in its place`,
    );
  }
}

const bufferIds = new WeakMap<ArrayBufferLike, number>();
let lastBufferId = 0;

/** The same bytes of the app under one key however many values hold them (base64 keys have no colon). */
function binaryKey(bytes: Uint8Array): string {
  let id = bufferIds.get(bytes.buffer);
  if (id === undefined) bufferIds.set(bytes.buffer, (id = ++lastBufferId));
  return `${id}:${bytes.byteOffset}:${bytes.byteLength}`;
}

/**
 * The bytes of a spot: decoded from its base64, or the binary data it stands for (copied when it
 * is shared memory, which WebCrypto and the upload do not take).
 */
function bytesOf(spot: MediaSpot, text: string): Uint8Array {
  const binary = spot.binary?.bytes;
  if (!binary) return decodeBase64(text, spot.b64Start, spot.b64End);
  return Object.prototype.toString.call(binary.buffer) === '[object SharedArrayBuffer]' ? binary.slice() : binary;
}

/** The media in the span's string attributes (and string arrays), or undefined when there is none; `base64` false: binary data only. */
function scan(attributes: Attributes, binaries: ReturnType<typeof capturedBinaries>, base64: boolean): FoundIn[] | undefined {
  let found: FoundIn[] | undefined;
  for (const key in attributes) {
    const value = attributes[key];
    if (typeof value === 'string') {
      const spots = value.length > 13 ? findMedia(value, binaries, base64) : undefined;
      if (spots) (found ??= []).push({ key, index: -1, text: value, spots });
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        const spots = typeof item === 'string' && item.length > 13 ? findMedia(item, binaries, base64) : undefined;
        if (spots) (found ??= []).push({ key, index: i, text: item as string, spots });
      }
    }
  }
  return found;
}

/** `text` with each spot replaced by what `replacement` gives for it. */
function rewrite(text: string, spots: MediaSpot[], replacement: (spot: MediaSpot) => string): string {
  const parts: string[] = [];
  let at = 0;
  for (const spot of spots) {
    if (spot.start < at) continue;
    parts.push(text.slice(at, spot.start), replacement(spot));
    at = spot.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * The protocol's `field` of an attribute: obs's own keys by name; an LLM library's by what it
 * holds (`gen_ai.output.messages`, `ai.response.*` are outputs; prompts and messages inputs).
 */
function fieldOf(key: string): MediaItem['field'] {
  if (key.includes('metadata')) return 'metadata';
  if (/output|response|completion|result/.test(key)) return 'output';
  if (/input|prompt|message|request/.test(key)) return 'input';
  return 'metadata';
}
