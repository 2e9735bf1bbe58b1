/**
 * Where media sits in an attribute's text: base64 data URIs (`data:<type>;base64,...` whose
 * `data:` starts a token and whose payload is at least `MIN_DATA_URI_CHARS` long), bare base64
 * strings of at least `MIN_RAW_CHARS` whose bytes are a known media format or that sit next to a
 * declared type (`mime_type`, `mediaType`, ... : the AI SDK's and LangChain's base64 parts,
 * OpenAI's `input_audio`), and the tokens of binary data an input held
 * (`tracing/media-capture.ts`). Text is scanned as it is, JSON or not, escaped JSON inside JSON
 * too: base64 has no character JSON escapes. Every pass is linear in the text whatever it holds
 * (each data URI's header is found by a forward scan, never by searching back from its
 * `;base64,`): text without media costs one `indexOf` and, when longer than `MIN_RAW_CHARS`, a
 * probe every `MIN_RAW_CHARS / 2` characters.
 */
import { type CapturedBinary, TOKEN_MARK } from '../../tracing/media-capture.js';
import { TRUNCATION_MARKER } from '../../util/capture.js';
import { decodeBase64, decodedLength } from './base64.js';
import { SNIFF_BYTES, sniffMediaType } from './sniff.js';

/** Shortest bare base64 string taken for media (~768 bytes); shorter ones stay as they are. */
export const MIN_RAW_CHARS = 1024;

/**
 * Shortest payload of a data URI taken for media (18 bytes; the smallest GIF or PNG is larger):
 * `data:image/png;base64,A` or a data URI inside another's payload stays text.
 */
export const MIN_DATA_URI_CHARS = 24;

/** One medium in an attribute's text. */
export interface MediaSpot {
  /** The text it replaces: `[start, end)`. */
  start: number;
  end: number;
  contentType: string;
  /** `base64_data_uri` for base64 text, `bytes` for binary data. */
  source: 'base64_data_uri' | 'bytes';
  /** Size of the bytes. */
  byteLength: number;
  /** The base64 payload in the text (data URIs and bare base64), `[b64Start, b64End)`. */
  b64Start: number;
  b64End: number;
  /** The binary data a token stands for. */
  binary?: CapturedBinary;
  /**
   * Cut by a size limit before export: its bytes are incomplete, so it is never uploaded.
   * `byteLength` is then the size before the cut when the marker says how much was cut.
   */
  cut: boolean;
}

const DATA_URI_SEPARATOR = ';base64,';
const DATA_URI_HEAD = 'data:';
/** Longest `data:` header read (type and parameters). */
const MAX_HEADER = 200;
const HEADER = /^([\w.+-]+\/[\w.+-]+)(?:;[\w.+-]+=[^;,"\\]*)*$/;
/** A declared type next to a bare base64 string, in JSON or escaped JSON. */
const DECLARED_TYPE = /\\?"(?:mime|media|content)_?type\\?"\s*:\s*\\?"([\w.+-]+\/[\w.+-]+)/gi;
/** How far from a bare base64 string (or token) its declared type is looked for. */
const DECLARED_TYPE_WINDOW = 300;

/**
 * Every declared type of `text`, in order, read in one synchronous pass of `DECLARED_TYPE` itself
 * (left at `lastIndex` 0): `matchAll` would copy the expression (a `RegExp` built per call) for
 * each text of every span, where most texts hold none.
 */
function declaredTypes(text: string): { at: number; end: number; type: string }[] {
  const types: { at: number; end: number; type: string }[] = [];
  DECLARED_TYPE.lastIndex = 0;
  for (let m = DECLARED_TYPE.exec(text); m; m = DECLARED_TYPE.exec(text))
    types.push({ at: m.index, end: m.index + m[0].length, type: m[1]! });
  DECLARED_TYPE.lastIndex = 0;
  return types;
}

const BASE64 = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64[c.charCodeAt(0)] = 1;

function isBase64Char(code: number): boolean {
  return code < 128 && BASE64[code] === 1;
}

/** Candidates looked at between the checkpoints of a scan (where its caller may pause). */
const CHECK_EVERY = 256;

/**
 * The media in `text`, kind by kind (data URIs, bare base64, binary data), each kind in order
 * (`inTextOrder` sorts a mix), with `undefined` at checkpoints: every `CHECK_EVERY` candidates,
 * where a caller may stop for a turn. `binaries`: the binary data of the span, by the token
 * written in its place; `base64` false: only their tokens are looked for.
 */
export function* scanMedia(
  text: string,
  binaries?: ReadonlyMap<string, CapturedBinary>,
  base64 = true,
): Generator<MediaSpot | undefined, void, undefined> {
  if (base64) yield* dataUris(text);
  let seen = 0;
  if (base64 && text.length >= MIN_RAW_CHARS) {
    for (const run of longBase64Runs(text)) {
      const spot = bareBase64(text, run[0], run[1]);
      if (spot) yield spot;
      // A run costs a sniff and a look for a declared type: a checkpoint every few.
      if (++seen % (CHECK_EVERY / 16) === 0) yield undefined;
    }
  }
  if (base64) yield* shortDeclaredBase64(text);
  if (binaries) yield* binaryTokens(text, binaries);
}

/**
 * The tokens of `binaries` in `text`, in order, with checkpoints. Each token ends in
 * `TOKEN_MARK`, its own number and `]`: one forward pass finds every mark, reads its number and
 * checks the one token of that number ends there. A search per token would cost a pass over the
 * text for each, quadratic in a value of thousands of buffers.
 */
function* binaryTokens(text: string, binaries: ReadonlyMap<string, CapturedBinary>): Generator<MediaSpot | undefined> {
  const byNumber = new Map<string, string>();
  for (const token of binaries.keys()) byNumber.set(token.slice(token.lastIndexOf(TOKEN_MARK) + TOKEN_MARK.length, -1), token);
  let seen = 0;
  for (let at = text.indexOf(TOKEN_MARK); at !== -1; at = text.indexOf(TOKEN_MARK, at + 1)) {
    if (++seen % CHECK_EVERY === 0) yield undefined;
    const from = at + TOKEN_MARK.length;
    let end = from;
    while (isDigit(text.charCodeAt(end))) end++;
    const token = text.charCodeAt(end) === 93 /* ] */ ? byNumber.get(text.slice(from, end)) : undefined;
    const start = end + 1 - (token?.length ?? 0);
    if (token && start >= 0 && text.startsWith(token, start)) yield binarySpot(text, start, token, binaries.get(token)!);
  }
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Whether `scanMedia(text, binaries, base64)` would find nothing, told without starting it: a
 * text shorter than `MIN_RAW_CHARS` with no `data:`, no declared type and no binary data to look
 * for (what nearly every attribute of a model call is). The answer is exact, never a guess.
 */
export function surelyNoMedia(text: string, binaries: ReadonlyMap<string, CapturedBinary> | undefined, base64: boolean): boolean {
  if (binaries && binaries.size > 0) return false;
  if (!base64) return true;
  if (text.length >= MIN_RAW_CHARS || text.includes(DATA_URI_HEAD)) return false;
  DECLARED_TYPE.lastIndex = 0;
  const typed = DECLARED_TYPE.test(text);
  DECLARED_TYPE.lastIndex = 0;
  return !typed;
}

/** The media in `text`, in order, or undefined when there is none (`scanMedia` at once). */
export function findMedia(text: string, binaries?: ReadonlyMap<string, CapturedBinary>, base64 = true): MediaSpot[] | undefined {
  const spots: MediaSpot[] = [];
  for (const spot of scanMedia(text, binaries, base64)) if (spot) spots.push(spot);
  return spots.length > 0 ? inTextOrder(spots) : undefined;
}

/** `spots` of `scanMedia` in text order: each kind comes in order, so only a mix is sorted. */
export function inTextOrder(spots: MediaSpot[]): MediaSpot[] {
  for (let i = 1; i < spots.length; i++) if (spots[i - 1]!.start > spots[i]!.start) return spots.sort((a, b) => a.start - b.start);
  return spots;
}

/**
 * The data URIs of `text`, in order, with checkpoints: each `;base64,` with the nearest `data:`
 * before it (within `MAX_HEADER`), both found by forward scans, so the pass is linear in the text
 * however many of either it holds; the cheap tests (the payload's length and end) come before
 * the header's.
 */
function* dataUris(text: string): Generator<MediaSpot | undefined, void, undefined> {
  let head = -1;
  let nextHead = text.indexOf(DATA_URI_HEAD);
  if (nextHead === -1) return;
  let seen = 0;
  for (
    let at = text.indexOf(DATA_URI_SEPARATOR, nextHead);
    at !== -1;
    at = text.indexOf(DATA_URI_SEPARATOR, at + DATA_URI_SEPARATOR.length)
  ) {
    if (++seen % CHECK_EVERY === 0) yield undefined;
    while (nextHead !== -1 && nextHead < at) {
      head = nextHead;
      nextHead = text.indexOf(DATA_URI_HEAD, nextHead + 1);
      if (++seen % CHECK_EVERY === 0) yield undefined;
    }
    if (head === -1 || at - head > MAX_HEADER + DATA_URI_HEAD.length) continue;
    const spot = dataUriAt(text, head, at);
    if (spot) yield spot;
  }
}

/** The data URI at `head` whose `;base64,` is at `at`, or undefined when the text there is not one. */
function dataUriAt(text: string, head: number, at: number): MediaSpot | undefined {
  const b64Start = at + DATA_URI_SEPARATOR.length;
  const b64End = runEnd(text, b64Start);
  // A run that stops at anything but its string's end (a line wrap, base64url's `-` or `_`) is
  // not all of the payload: uploaded, it would be a truncated file.
  if (continuesAt(text, b64End)) return undefined;
  // Too short to be a file (`data:image/png;base64,A`, the `data:` of a data URI inside another's
  // payload): text, unless obs cut it and said how much.
  if (b64End - b64Start < MIN_DATA_URI_CHARS && cutAt(text, b64End)?.more === undefined) return undefined;
  if (!startsToken(text, head)) return undefined;
  const header = HEADER.exec(text.slice(head + DATA_URI_HEAD.length, at));
  if (!header) return undefined;
  return spot(text, head, b64Start, b64End, header[1]!.toLowerCase(), 'base64_data_uri');
}

/**
 * Whether `data:` at `at` starts a token: the text's start, or after anything but a letter,
 * digit or `_.+-` (`metadata:application/json;base64,...` is not a data URI), or after an
 * escaped line break or tab in JSON text (`\ndata:`).
 */
function startsToken(text: string, at: number): boolean {
  if (at === 0) return true;
  const before = text.charCodeAt(at - 1);
  if (!isTokenChar(before)) return true;
  // `\n`, `\r`, `\t` of JSON text: an odd number of backslashes before the letter.
  if (before !== 110 /* n */ && before !== 114 /* r */ && before !== 116 /* t */) return false;
  let slashes = 0;
  for (let i = at - 2; i >= 0 && text.charCodeAt(i) === 92 && slashes < 16; i--) slashes++;
  return slashes % 2 === 1;
}

function isTokenChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 46 ||
    code === 43 ||
    code === 45
  );
}

/** A bare base64 run as media: a whole string value whose bytes or neighbourhood name a media type. */
function bareBase64(text: string, start: number, end: number): MediaSpot | undefined {
  const b64End = padEnd(text, end);
  const closes = closesAt(text, b64End);
  const opens = start === 0 || text.charCodeAt(start - 1) === 34;
  const cut = cutAt(text, b64End) !== undefined;
  if (!opens || !(closes || cut)) return undefined;
  const type =
    sniffMediaType(decodeBase64(text, start, start + Math.min(end - start, Math.ceil(SNIFF_BYTES / 3) * 4))) ??
    declaredTypeNear(text, start, b64End);
  return type ? spot(text, start, start, b64End, type, 'base64_data_uri') : undefined;
}

function binarySpot(text: string, at: number, token: string, binary: CapturedBinary): MediaSpot {
  const type =
    sniffMediaType(binary.bytes.subarray(0, SNIFF_BYTES)) ?? declaredTypeNear(text, at, at + token.length) ?? 'application/octet-stream';
  return {
    start: at,
    end: at + token.length,
    contentType: type,
    source: 'bytes',
    byteLength: binary.bytes.byteLength,
    b64Start: at,
    b64End: at,
    binary,
    cut: false,
  };
}

/** A base64 medium `[start, ...)` whose payload is `[b64Start, b64End)`; cut when obs's truncation marker follows it. */
function spot(text: string, start: number, b64Start: number, b64End: number, contentType: string, source: MediaSpot['source']): MediaSpot {
  let end = b64End;
  let byteLength = decodedLength(text, b64Start, b64End);
  // A payload cut by a size limit ends in obs's marker, which goes with it; so does one that is not whole base64.
  let cut = (b64End - b64Start) % 4 === 1;
  const marker = cutAt(text, b64End);
  if (marker) {
    end = marker.end;
    cut = true;
    // The marker counts the base64 characters cut: the medium's size before the cut.
    if (marker.more !== undefined) byteLength = Math.floor(((b64End - b64Start + marker.more) * 3) / 4);
  }
  return { start, end, contentType, source, byteLength, b64Start, b64End, cut };
}

/** Longest truncation marker (`…[truncated by obs: <count> more characters]`) looked for past a payload. */
const MAX_MARKER_CHARS = 80;
const MORE = /^(\d{1,15}) more characters\]/;

/**
 * obs's truncation marker at `at`: where it ends (its `]`, looked for within `MAX_MARKER_CHARS`:
 * a marker never runs longer, and a hostile text of markers without one costs no scan to the
 * text's end) and how many characters it says were cut, or undefined when there is none.
 */
function cutAt(text: string, at: number): { end: number; more?: number } | undefined {
  if (!text.startsWith(TRUNCATION_MARKER, at)) return undefined;
  const from = at + TRUNCATION_MARKER.length;
  const tail = text.slice(from, from + MAX_MARKER_CHARS);
  const close = tail.indexOf(']');
  const more = MORE.exec(tail);
  return {
    end: close === -1 ? Math.min(text.length, from + MAX_MARKER_CHARS) : from + close + 1,
    more: more ? Number(more[1]) : undefined,
  };
}

/**
 * Whether the data URI's payload goes on past its base64 run in another shape: a line wrap (raw,
 * or escaped in JSON text), base64url's `-`/`_`, or percent-encoding. Uploading the run would
 * upload part of it. Anything else ends it (a quote, a space, markdown's `)`, the text's end, obs's
 * truncation marker).
 */
function continuesAt(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c === 10 || c === 13 || c === 45 /* - */ || c === 95 /* _ */ || c === 37 /* % */) return true;
  if (c !== 92 /* \ */) return false;
  let i = at;
  while (text.charCodeAt(i) === 92) i++;
  const escaped = text.charCodeAt(i);
  return escaped === 110 /* n */ || escaped === 114 /* r */;
}

/** Whether a string ends at `at`: the text's end, or a quote, escaped (at any depth of JSON in JSON) or not. */
function closesAt(text: string, at: number): boolean {
  let i = at;
  while (text.charCodeAt(i) === 92 /* \\ */) i++;
  return i === text.length ? i === at : text.charCodeAt(i) === 34;
}

/** Where the base64 run starting at `start` ends, its `=` padding included. */
function runEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && isBase64Char(text.charCodeAt(i))) i++;
  return padEnd(text, i);
}

function padEnd(text: string, end: number): number {
  let i = end;
  while (i < end + 2 && text.charCodeAt(i) === 61 /* = */) i++;
  return i;
}

/**
 * The runs of base64 characters of at least `MIN_RAW_CHARS` (without padding). Any such run
 * covers one of the probed positions, every `MIN_RAW_CHARS / 2` characters; a probe that lands in
 * prose stops at the ends of its word.
 */
function* longBase64Runs(text: string): Generator<[number, number]> {
  const step = MIN_RAW_CHARS / 2;
  let scannedTo = 0;
  for (let probe = step - 1; probe < text.length; probe += step) {
    if (probe < scannedTo || !isBase64Char(text.charCodeAt(probe))) continue;
    let start = probe;
    while (start > scannedTo && isBase64Char(text.charCodeAt(start - 1))) start--;
    let end = probe + 1;
    while (end < text.length && isBase64Char(text.charCodeAt(end))) end++;
    scannedTo = end;
    if (end - start >= MIN_RAW_CHARS) yield [start, end];
  }
}

/** A media type declared next to `[start, end)` (`"mime_type": "image/png"` and its spellings), the nearest one. */
function declaredTypeNear(text: string, start: number, end: number): string | undefined {
  const before = text.slice(Math.max(0, start - DECLARED_TYPE_WINDOW), start);
  let nearest: { type: string; distance: number } | undefined;
  for (const m of before.matchAll(DECLARED_TYPE)) nearest = { type: m[1]!, distance: before.length - m.index };
  const after = text.slice(end, end + DECLARED_TYPE_WINDOW);
  const next = DECLARED_TYPE.exec(after);
  DECLARED_TYPE.lastIndex = 0;
  if (next && (!nearest || next.index < nearest.distance)) return next[1]!.toLowerCase();
  return nearest?.type.toLowerCase();
}

/** A data value of an object: `"data": "`, `"image": "`, `"content": "`, `"bytes": "` (JSON or escaped JSON). */
const DATA_KEY = /\\?"(?:data|image|content|bytes)\\?"\s*:\s*\\?"/g;

/**
 * Base64 strings shorter than `MIN_RAW_CHARS` that are the data of an object declaring their
 * media type (the AI SDK's `{ type: 'file', mediaType, data }` and `{ type: 'image', image,
 * mediaType }`, GenAI's `{ type: 'blob', mime_type, content }`): a small image is media too. The
 * data key and the declared type sit in the same object (no brace between them), at most a
 * window apart. One pass each over the text for declared types, braces and data keys, and O(log n)
 * per data key: a text made of declared types or data keys costs time in proportion to its length.
 */
function* shortDeclaredBase64(text: string): Generator<MediaSpot | undefined> {
  const types = declaredTypes(text);
  if (types.length === 0) return;
  const braces: number[] = [];
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === 123 /* { */ || c === 125 /* } */) braces.push(at);
  }
  /** Whether a brace lies in `[from, to)`. */
  const braceWithin = (from: number, to: number) => {
    let lo = 0;
    let hi = braces.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (braces[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < braces.length && braces[lo]! < to;
  };
  const reach = MIN_RAW_CHARS + DECLARED_TYPE_WINDOW;
  let next = 0; // the first declared type at or after the key
  let seen = 0;
  for (const key of text.matchAll(DATA_KEY)) {
    if (++seen % (CHECK_EVERY / 16) === 0) yield undefined;
    const start = key.index + key[0].length;
    // Only a short run can be this kind: stop reading where it would be too long.
    const limit = Math.min(text.length, start + MIN_RAW_CHARS);
    let i = start;
    while (i < limit && isBase64Char(text.charCodeAt(i))) i++;
    if (i === limit && isBase64Char(text.charCodeAt(i))) continue;
    const end = padEnd(text, i);
    const length = end - start;
    if (length < MIN_DATA_URI_CHARS || length >= MIN_RAW_CHARS || length % 4 === 1 || !closesAt(text, end)) continue;
    while (next < types.length && types[next]!.at < key.index) next++;
    // The nearest declared type on either side: a farther one has at least the same braces between.
    const before = types[next - 1];
    const after = types[next];
    const near =
      before && key.index - before.end <= reach && !braceWithin(before.end, key.index)
        ? before
        : after && after.at - end <= reach && !braceWithin(end, after.at)
          ? after
          : undefined;
    if (near) yield spot(text, start, start, end, near.type.toLowerCase(), 'base64_data_uri');
  }
}
