/**
 * The texts of a span's attributes as the media step reads and rewrites them, never for long in
 * one turn of the app's event loop: a span with little text is scanned at once (the common case:
 * an `indexOf` per attribute), a larger one in turns of at most `SLICE_MS` (a value of a megabyte
 * of data URIs, whatever it holds, is a few passes spread over turns), and the texts with their
 * references in place are written the same way.
 */
import type { Attributes } from '@opentelemetry/api';
import type { CapturedBinary } from '../../tracing/media-capture.js';
import { type MediaSpot, inTextOrder, scanMedia, surelyNoMedia } from './find-media.js';
import { unref } from '../../util/unref.js';

/** Longest turn of the event loop the media step takes at a time, in ms. */
export const SLICE_MS = 8;

/** Text of a span up to this many characters is scanned in the turn that asks (well under a millisecond). */
export const SCAN_AT_ONCE_CHARS = 64 * 1024;

/** A string attribute (`index`: the element of a string array, -1 for a string). */
export interface AttributeText {
  key: string;
  index: number;
  text: string;
}

/** An attribute's text with the media found in it, in order. */
export interface FoundIn extends AttributeText {
  spots: MediaSpot[];
}

/** Paces work over turns: `due()` says when the slice is used up, `next()` waits for a later turn. */
export class Turns {
  private started = Date.now();

  due(): boolean {
    return Date.now() - this.started > SLICE_MS;
  }

  /** Resolves in a later turn of the event loop (a timer that keeps nothing alive): whether `stopped()` turned true meanwhile. */
  async next(stopped: () => boolean): Promise<boolean> {
    await new Promise<void>((resolve) => unref(setTimeout(resolve, 0)));
    this.started = Date.now();
    return stopped();
  }
}

/** The string attributes (and string array items) that may hold media, with their total length. */
export function attributeTexts(attributes: Attributes): { texts: AttributeText[]; chars: number } {
  const texts: AttributeText[] = [];
  let chars = 0;
  for (const key in attributes) {
    const value = attributes[key];
    if (typeof value === 'string') {
      if (value.length > 13) texts.push({ key, index: -1, text: value });
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (typeof item === 'string' && item.length > 13) texts.push({ key, index: i, text: item });
      }
    }
  }
  for (const { text } of texts) chars += text.length;
  return { texts, chars };
}

/** The media in `texts`, found now; undefined when there is none. `base64` false: binary data only. */
export function scanNow(
  texts: AttributeText[],
  binaries: ReadonlyMap<string, CapturedBinary> | undefined,
  base64: boolean,
): FoundIn[] | undefined {
  let found: FoundIn[] | undefined;
  for (const at of texts) {
    // Most texts: no scan (three generators) to start.
    if (surelyNoMedia(at.text, binaries, base64)) continue;
    const spots: MediaSpot[] = [];
    for (const spot of scanMedia(at.text, binaries, base64)) if (spot) spots.push(spot);
    if (spots.length > 0) (found ??= []).push({ ...at, spots: inTextOrder(spots) });
  }
  return found;
}

/** `scanNow` in turns of `turns`; undefined when `stopped()` turned true meanwhile, or nothing was found. */
export async function scanInTurns(
  texts: AttributeText[],
  binaries: ReadonlyMap<string, CapturedBinary> | undefined,
  base64: boolean,
  turns: Turns,
  stopped: () => boolean,
): Promise<FoundIn[] | undefined> {
  let found: FoundIn[] | undefined;
  for (const at of texts) {
    const spots: MediaSpot[] = [];
    for (const spot of scanMedia(at.text, binaries, base64)) {
      if (spot) spots.push(spot);
      else if (turns.due() && (await turns.next(stopped))) return undefined;
    }
    if (spots.length > 0) (found ??= []).push({ ...at, spots: inTextOrder(spots) });
  }
  return found;
}

/** `text` with each spot replaced by what `replacement` gives for it. */
export function rewrite(text: string, spots: MediaSpot[], replacement: (spot: MediaSpot) => string): string {
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

/** `rewrite` in turns of `turns`; undefined when `stopped()` turned true meanwhile. */
export async function rewriteInTurns(
  text: string,
  spots: MediaSpot[],
  replacement: (spot: MediaSpot) => string,
  turns: Turns,
  stopped: () => boolean,
): Promise<string | undefined> {
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < spots.length; i++) {
    if (i % 256 === 255 && turns.due() && (await turns.next(stopped))) return undefined;
    const spot = spots[i]!;
    if (spot.start < at) continue;
    parts.push(text.slice(at, spot.start), replacement(spot));
    at = spot.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
