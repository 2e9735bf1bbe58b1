/**
 * What base64 media is while a value is being serialised, the rule's one home: a data URI
 * (`data:<type>[;params];base64,...`) always, and a string of bare base64 that would be cut (its
 * first 1,024 and last 64 characters base64: an AI SDK or LangChain image part, OpenAI's input
 * audio). Such a string is written whole and outside the length count, since the export uploads
 * it and puts a short reference in its place before the attribute cap; past the media limit
 * (`MAX_MEDIA_BYTES`), or past `MAX_MEDIA_TEXT_CHARS` of media in one value, it is written as its
 * first characters and a marker counting the rest, from which the export reads its size and puts
 * the failure marker in its place. The serialiser (`util/serialize.ts`) asks this rule through its
 * `media` hook; observation values get it once an `ObsSpanProcessor` exists (`keepMediaWhole`).
 * `find-media.ts` finds media in the serialised text, a rule of its own (markers, declared types).
 */
import { TRUNCATION_MARKER } from '../../util/capture.js';
import type { MediaText } from '../../util/serialize.js';
import { MAX_MEDIA_BYTES } from './media-uploads.js';

/**
 * Most characters of base64 media written whole in one value: about the 128 MiB of media bytes
 * the upload holds at most (two media of 50 MiB fit). Media past it is written cut.
 */
export const MAX_MEDIA_TEXT_CHARS = 180_000_000;

/** Base64 characters a medium written cut keeps (a multiple of 4): enough to tell its type by its bytes. */
const CUT_MEDIUM_KEEPS = 1024;

const BASE64_HEAD = /^[A-Za-z0-9+/]{1024}/;
const BASE64_TAIL = /[A-Za-z0-9+/]{60}={0,2}$/;

/**
 * The media reader of one value (`SerializeHooks.media`): the text written in place of `s` (`s`
 * itself, or cut past the limits), or undefined when `s` is not media. `room`: the characters the
 * value has left, past which bare base64 counts as media.
 */
export function wholeMediaText(): MediaText {
  let mediaChars = 0;
  return (s, room) => {
    const dataUri = isBase64DataUri(s);
    if (!dataUri && !(s.length > room && looksLikeBase64(s))) return undefined;
    if (mediaChars + s.length > MAX_MEDIA_TEXT_CHARS || pastMediaLimit(s, dataUri)) return cutMedium(s, dataUri);
    mediaChars += s.length;
    return s;
  };
}

/** Whether `s` is a base64 data URI (`data:<type>[;params];base64,...`); reads at most its first 256 characters. */
function isBase64DataUri(s: string): boolean {
  return s.length > 13 && s.charCodeAt(0) === 100 && s.startsWith('data:') && s.lastIndexOf(';base64,', 256) > 5;
}

/**
 * Whether `s` looks like bare base64 media: its first 1,024 and last 64 characters are base64.
 * Reads those only; the export finds where the base64 really ends.
 */
function looksLikeBase64(s: string): boolean {
  return s.length >= 1024 && BASE64_HEAD.test(s) && BASE64_TAIL.test(s.slice(-64));
}

/** Where the payload of base64 media `s` starts (after a data URI's `;base64,`, else 0). */
function payloadStart(s: string, dataUri: boolean): number {
  return dataUri ? s.lastIndexOf(';base64,', 256) + 8 : 0;
}

/** Base64 characters of the payload without its `=` padding. */
function dataChars(s: string, start: number): number {
  let end = s.length;
  while (end > start && end > s.length - 2 && s.charCodeAt(end - 1) === 61 /* = */) end--;
  return end - start;
}

/** Whether base64 media `s` decodes to more than `MAX_MEDIA_BYTES`. */
function pastMediaLimit(s: string, dataUri: boolean): boolean {
  return s.length > MAX_MEDIA_BYTES && Math.floor((dataChars(s, payloadStart(s, dataUri)) * 3) / 4) > MAX_MEDIA_BYTES;
}

/**
 * A medium written cut: its header and first `CUT_MEDIUM_KEEPS` characters, then the marker
 * counting the base64 characters cut (its padding aside), from which the export reads its size.
 */
function cutMedium(s: string, dataUri: boolean): string {
  const start = payloadStart(s, dataUri);
  const kept = Math.min(CUT_MEDIUM_KEEPS, dataChars(s, start));
  return `${s.slice(0, start + kept)}${TRUNCATION_MARKER}${dataChars(s, start) - kept} more characters]`;
}
