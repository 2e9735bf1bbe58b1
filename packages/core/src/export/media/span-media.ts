/**
 * The export's media step: between a span's end and its encoding, the media in its attributes
 * (`find-media.ts`) is decoded, hashed and asked for (`media-uploads.ts`), and each medium is
 * replaced by its reference, or by the failure marker (never by its base64) when it could not be
 * asked for: past the size limit (one line per size), cut before export, past the held-bytes
 * limit, refused, or unanswered in time. Every medium that leaves as a marker is counted in the
 * outage log. The span waits for its asks: decoding and hashing at most `waitMs`, each ask at
 * most `queueMs` for its turn and `waitMs` for its answer from the moment it is sent (so a burst
 * at a slow server keeps its references); the batch queue holds it (`ExportSteps.hold`) and
 * encodes it once they are answered; the uploads themselves go on after it left. It runs in the
 * batch queue's turn, never inside the app's `span.end()`; a span without media costs an
 * `indexOf` per attribute (and a sparse probe of long ones).
 */
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '../../tracing/sdk-types.js';
import { capturedBinaries, dropCapturedBinaries } from '../../tracing/media-capture.js';
import { MEDIA_STATE } from '../../tracing/span-slots.js';
import { logger } from '../../util/logger.js';
import { within } from '../../util/within.js';
import { decodeBase64 } from './base64.js';
import { hashMedia } from './hash.js';
import type { MediaSpot } from './find-media.js';
import { attributeTexts, type FoundIn, rewrite, rewriteInTurns, SCAN_AT_ONCE_CHARS, scanInTurns, scanNow, Turns } from './media-texts.js';
import { MAX_MEDIA_BYTES, type MediaAnswer, type MediaAsk, type MediaItem, type MediaUploads } from './media-uploads.js';
import { mediaFailedMarker, mediaReference } from './reference.js';

/** Default longest wait of a span for the answer to one of its media's asks (from the ask's departure), in ms. */
export const MEDIA_WAIT_MS = 5_000;

/**
 * Longest wait of a medium's ask for its turn (at most `MAX_CONCURRENT_ASKS` asks are in flight):
 * a burst of media at a slow server keeps its references, and a span is never held for ever.
 */
export const MEDIA_QUEUE_MS = 30_000;

/** Most media of one span uploaded (distinct contents); the rest get the marker, counted. */
export const MAX_MEDIA_PER_SPAN = 256;

interface MediaState {
  found: FoundIn[];
  /** What each spot becomes, once known. */
  replacements: Map<MediaSpot, string>;
  /** The texts with every spot replaced, written ahead in turns once every answer is in (by `found`'s index). */
  rewritten?: string[];
  /** The scan to run in turns, until it has: what `apply` scans itself when the span goes before (a drain past its deadline). */
  unscanned?: () => FoundIn[] | undefined;
  /** The span's media with their outcomes: what `apply` counts. */
  media: Medium[];
  done: boolean;
  wait?: Promise<void>;
}

/** One place of a medium in the span's attributes. */
interface MediumSpot {
  spot: MediaSpot;
  field: MediaItem['field'];
  text: string;
}

/** One medium of a span (its content, wherever it stands), and why it has no reference when it has none. */
interface Medium {
  spots: MediumSpot[];
  /** Why it stays a marker, once known (undefined while it waits, and once it has its reference). */
  why?: string;
  /** Its marker is said already (a refused ask, the held-bytes limit, a size line): not counted again. */
  said?: boolean;
  /** Media it stands for in the count (the media past `MAX_MEDIA_PER_SPAN`, counted together). */
  count?: number;
}

type Slotted = { [MEDIA_STATE]?: MediaState };

export class SpanMedia {
  /** Oversized media said once each (by type and size), at most this many remembered. */
  private readonly saidTooLarge = new Set<string>();

  /** `uploads` undefined: media is not uploaded (binary data is written as its description). */
  constructor(
    private readonly uploads: MediaUploads | undefined,
    private readonly waitMs = MEDIA_WAIT_MS,
    private readonly queueMs = MEDIA_QUEUE_MS,
  ) {}

  /** What the span waits for before it is encoded (its media's asks), or undefined: nothing. */
  hold(span: ReadableSpan): Promise<void> | undefined {
    const slot = span as Slotted;
    const state = slot[MEDIA_STATE];
    if (state) return state.done ? undefined : state.wait;
    const binaries = capturedBinaries(span);
    // Without uploads only binary data needs its tokens written back as descriptions.
    if (!this.uploads && !binaries) return undefined;
    const { texts, chars } = attributeTexts(span.attributes);
    if (texts.length === 0) return undefined;
    const base64 = this.uploads !== undefined;
    // Little text is scanned now; more in turns of its own (the span waits aside meanwhile).
    const later = this.uploads !== undefined && chars > SCAN_AT_ONCE_CHARS;
    const found = later ? [] : scanNow(texts, binaries, base64);
    if (!found) return undefined;
    const fresh: MediaState = { found, replacements: new Map(), media: [], done: !this.uploads };
    slot[MEDIA_STATE] = fresh;
    if (fresh.done) return undefined;
    const turns = new Turns();
    if (later) fresh.unscanned = () => scanNow(texts, binaries, base64);
    const work = later
      ? scanInTurns(texts, binaries, base64, turns, () => fresh.done).then((spots) => {
          if (fresh.done) return;
          fresh.unscanned = undefined;
          if (!spots) return;
          fresh.found = spots;
          return this.resolve(span, fresh, turns);
        })
      : this.resolve(span, fresh, turns);
    fresh.wait = work.then(
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

  /**
   * Writes references (markers where none is known) in place of the span's media, in place, and
   * counts each medium that leaves as a marker in the outage log (unless its line was written).
   */
  apply(span: ReadableSpan): void {
    const slot = span as Slotted;
    const state = slot[MEDIA_STATE];
    // The app's binary data is written as its reference or description: the span lets go of it.
    dropCapturedBinaries(span);
    if (!state) return;
    // Let go before its scan ended: every medium is the marker, never its base64.
    if (state.unscanned) state.found = state.unscanned() ?? [];
    state.unscanned = undefined;
    if (state.found.length === 0) {
      state.done = true;
      return;
    }
    const attributes = span.attributes as Attributes;
    state.found.forEach(({ key, index, text, spots }, i) => {
      const current = attributes[key];
      const replaced = state.rewritten?.[i] ?? rewrite(text, spots, (spot) => state.replacements.get(spot) ?? this.fallback(spot));
      if (index === -1) {
        if (current === text) attributes[key] = replaced;
      } else if (Array.isArray(current) && current[index] === text) {
        const copy = current.slice() as string[];
        copy[index] = replaced;
        attributes[key] = copy;
      }
    });
    // A medium still waiting (a drain past its deadline let the span go) is counted by the drain's line.
    for (const medium of state.media) {
      if (medium.why !== undefined && !medium.said) this.uploads?.lose(medium.why, medium.count);
    }
    // The bytes and texts may go now (a spot of binary data holds the app's bytes; an answer
    // arriving later is not kept).
    state.found = [];
    state.replacements = new Map();
    state.rewritten = undefined;
    state.media = [];
    state.done = true;
  }

  /** The last marker written: thousands of markers of one type and size are one string. */
  private lastMarker = { contentType: '', byteLength: -1, text: '' };

  /** What a spot becomes without an answer: the marker, or with uploads off the description of binary data. */
  private fallback(spot: MediaSpot): string {
    if (!this.uploads) return spot.binary?.description ?? '';
    const last = this.lastMarker;
    if (last.contentType !== spot.contentType || last.byteLength !== spot.byteLength) {
      this.lastMarker = {
        contentType: spot.contentType,
        byteLength: spot.byteLength,
        text: mediaFailedMarker(spot.contentType, spot.byteLength),
      };
    }
    return this.lastMarker.text;
  }

  private async resolve(span: ReadableSpan, state: MediaState, turns: Turns): Promise<void> {
    // One medium may stand in several attributes (the AI SDK's raw and obs's mapped input): decoded, hashed and asked once per field.
    const byContent = new Map<string, Medium>();
    /** Media past `MAX_MEDIA_PER_SPAN`, and media cut before export: each counted together. */
    const beyond: Medium & { count: number } = { spots: [], count: 0, why: `its span holds more than ${MAX_MEDIA_PER_SPAN} media` };
    const cut: Medium & { count: number } = {
      spots: [],
      count: 0,
      why: 'it was cut before export (more than 128 MiB of media in one value)',
    };
    const beyondContents = new Set<string>();
    // Telling thousands of media apart takes turns of their own.
    for (const { key, text, spots } of state.found) {
      const field = fieldOf(key);
      for (let i = 0; i < spots.length; i++) {
        // Let go meanwhile (a drain past its deadline): nothing more to do.
        if (i % 256 === 255 && turns.due() && (await turns.next(() => state.done))) return;
        const spot = spots[i]!;
        if (spot.byteLength > MAX_MEDIA_BYTES) {
          this.sayTooLarge(spot);
          state.media.push({ spots: [{ spot, field, text }], said: true });
          continue;
        }
        if (spot.cut) {
          cut.spots.push({ spot, field, text });
          cut.count++;
          continue;
        }
        const content = spot.binary ? binaryKey(spot.binary.bytes) : text.slice(spot.b64Start, spot.b64End);
        let medium = byContent.get(content);
        if (!medium && byContent.size >= MAX_MEDIA_PER_SPAN) {
          // A value of thousands of small data URIs is not thousands of uploads.
          beyond.spots.push({ spot, field, text });
          beyondContents.add(content);
          beyond.count = beyondContents.size;
          continue;
        }
        if (!medium) byContent.set(content, (medium = { spots: [] }));
        medium.spots.push({ spot, field, text });
      }
    }
    state.media.push(...byContent.values());
    for (const group of [beyond, cut]) if (group.count > 0) state.media.push(group);
    await Promise.all([...byContent.values()].map((medium) => this.medium(medium, state, span)));
    if (state.done) return;
    // Every answer is in: the texts are written now, in turns, and `apply` only puts them in place.
    const rewritten: string[] = [];
    for (const { text, spots } of state.found) {
      const replaced = await rewriteInTurns(
        text,
        spots,
        (spot) => state.replacements.get(spot) ?? this.fallback(spot),
        turns,
        () => state.done,
      );
      if (replaced === undefined) return;
      rewritten.push(replaced);
    }
    state.rewritten = rewritten;
  }

  /**
   * Decodes, hashes and asks for one medium of the span; its answers go to `state.replacements`.
   * Each stage is bounded: decoding and hashing `waitMs`, the ask's turn `queueMs`, its answer
   * `waitMs` from its departure.
   */
  private async medium(medium: Medium, state: MediaState, span: ReadableSpan): Promise<void> {
    const first = medium.spots[0]!;
    // Held before it is decoded: past the limit the marker stands at once, and nothing was decoded or hashed.
    const held = this.uploads!.holdBytes(first.spot.byteLength);
    if (!held) {
      medium.said = true;
      return;
    }
    try {
      const hashed = await within(hashOf(first.spot, first.text), this.waitMs);
      if (!hashed) medium.why = `it was not hashed within ${seconds(this.waitMs)} s`;
      // The span left with the marker meanwhile: an ask would link media it does not show.
      if (!hashed || state.done) return;
      const { traceId, spanId } = span.spanContext();
      const fields = [...new Set(medium.spots.map((s) => s.field))];
      await Promise.all(
        fields.map(async (field) => {
          const item = { traceId, observationId: spanId, field, contentType: first.spot.contentType, ...hashed };
          const answer = await this.answerOf(
            this.uploads!.reference(item, held, () => !state.done),
            medium,
          );
          // Past the span's export (`apply`), an answer has nowhere to go.
          if (!answer || state.done) return;
          if (!('mediaId' in answer)) {
            medium.said = true;
            return;
          }
          for (const { spot } of medium.spots.filter((s) => s.field === field)) {
            state.replacements.set(spot, mediaReference(spot.contentType, answer.mediaId, spot.source));
          }
        }),
      );
    } finally {
      this.uploads!.releaseBytes(held);
    }
  }

  /** The answer to an ask, waited for `queueMs` until it leaves and `waitMs` after; undefined (the reason noted) when late. */
  private async answerOf(ask: MediaAsk, medium: Medium): Promise<MediaAnswer | undefined> {
    if (!(await within(ask.departed, this.queueMs))) {
      medium.why = `its ask waited ${seconds(this.queueMs)} s for its turn`;
      return undefined;
    }
    const answer = await within(ask.answer, this.waitMs);
    if (!answer) medium.why = `no answer to its ask within ${seconds(this.waitMs)} s`;
    return answer;
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

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/** The bytes of a spot with their hash (decoding included, so a bound on it bounds both). */
async function hashOf(spot: MediaSpot, text: string): Promise<{ bytes: Uint8Array; sha256Hash: string } | undefined> {
  const decoded = bytesOf(spot, text);
  if (decoded.byteLength === 0) return undefined;
  return hashMedia(decoded, !spot.binary || decoded !== spot.binary.bytes);
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
