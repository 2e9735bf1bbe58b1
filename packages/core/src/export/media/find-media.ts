/**
 * Where media sits in an attribute's text: base64 data URIs (`data:<type>;base64,...`, any
 * length), bare base64 strings of at least `MIN_RAW_CHARS` whose bytes are a known media format
 * or that sit next to a declared type (`mime_type`, `mediaType`, ... : the AI SDK's and
 * LangChain's base64 parts, OpenAI's `input_audio`), and the tokens of binary data an input held
 * (`tracing/media-capture.ts`). Text is scanned as it is, JSON or not, escaped JSON inside JSON
 * too: base64 has no character JSON escapes. Text without media costs one `indexOf` and, when
 * longer than `MIN_RAW_CHARS`, a probe every `MIN_RAW_CHARS / 2` characters.
 */
import type { CapturedBinary } from '../../tracing/media-capture.js';
import { TRUNCATION_MARKER } from '../../util/capture.js';
import { decodeBase64, decodedLength } from './base64.js';
import { SNIFF_BYTES, sniffMediaType } from './sniff.js';

/** Shortest bare base64 string taken for media (~768 bytes); shorter ones stay as they are. */
export const MIN_RAW_CHARS = 1024;

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
  /** Cut by a size limit before export: its bytes are incomplete, so it is never uploaded. */
  cut: boolean;
}

const DATA_URI_SEPARATOR = ';base64,';
/** Longest `data:` header read (type and parameters). */
const MAX_HEADER = 200;
const HEADER = /^([\w.+-]+\/[\w.+-]+)(?:;[\w.+-]+=[^;,"\\]*)*$/;
/** A declared type next to a bare base64 string, in JSON or escaped JSON. */
const DECLARED_TYPE = /\\?"(?:mime|media|content)_?type\\?"\s*:\s*\\?"([\w.+-]+\/[\w.+-]+)/gi;
/** How far from a bare base64 string (or token) its declared type is looked for. */
const DECLARED_TYPE_WINDOW = 300;

const BASE64 = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64[c.charCodeAt(0)] = 1;

function isBase64Char(code: number): boolean {
  return code < 128 && BASE64[code] === 1;
}

/**
 * The media in `text`, in order, or undefined when there is none. `binaries`: the binary data
 * of the span, by the token written in its place; `base64` false: only their tokens are looked for.
 */
export function findMedia(text: string, binaries?: ReadonlyMap<string, CapturedBinary>, base64 = true): MediaSpot[] | undefined {
  let spots: MediaSpot[] | undefined;
  const add = (spot: MediaSpot | undefined) => {
    if (spot) (spots ??= []).push(spot);
  };
  if (base64)
    for (let at = text.indexOf(DATA_URI_SEPARATOR); at !== -1; at = text.indexOf(DATA_URI_SEPARATOR, at + 1)) {
      add(dataUriAt(text, at));
    }
  if (base64 && text.length >= MIN_RAW_CHARS) for (const run of longBase64Runs(text)) add(bareBase64(text, run[0], run[1]));
  if (base64) for (const spot of shortDeclaredBase64(text)) add(spot);
  if (binaries)
    for (const [token, binary] of binaries)
      for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + 1)) {
        add(binarySpot(text, at, token, binary));
      }
  return spots && spots.length > 1 ? spots.sort((a, b) => a.start - b.start) : spots;
}

/** The data URI whose `;base64,` is at `at`, or undefined when the text there is not one. */
function dataUriAt(text: string, at: number): MediaSpot | undefined {
  const head = text.lastIndexOf('data:', at);
  if (head === -1 || at - head > MAX_HEADER) return undefined;
  const header = HEADER.exec(text.slice(head + 5, at));
  if (!header) return undefined;
  const b64Start = at + DATA_URI_SEPARATOR.length;
  const b64End = runEnd(text, b64Start);
  // A run that stops at anything but its string's end (a line wrap, base64url's `-` or `_`) is
  // not all of the payload: uploaded, it would be a truncated file.
  if (b64End === b64Start || continuesAt(text, b64End)) return undefined;
  return spot(text, head, b64Start, b64End, header[1]!.toLowerCase(), 'base64_data_uri');
}

/** A bare base64 run as media: a whole string value whose bytes or neighbourhood name a media type. */
function bareBase64(text: string, start: number, end: number): MediaSpot | undefined {
  const b64End = padEnd(text, end);
  const closes = closesAt(text, b64End);
  const opens = start === 0 || text.charCodeAt(start - 1) === 34;
  const cut = text.startsWith(TRUNCATION_MARKER, b64End);
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
  // A payload cut by a size limit ends in obs's marker, which goes with it; so does one that is not whole base64.
  let cut = (b64End - b64Start) % 4 === 1;
  if (text.startsWith(TRUNCATION_MARKER, b64End)) {
    const close = text.indexOf(']', b64End);
    end = close === -1 ? text.length : close + 1;
    cut = true;
  }
  return { start, end, contentType, source, byteLength: decodedLength(text, b64Start, b64End), b64Start, b64End, cut };
}

/** Whether a string ends at `at`: the text's end, or a quote, escaped (at any depth of JSON in JSON) or not. */
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
 * data key and the declared type sit in the same object, with no brace between them.
 */
function* shortDeclaredBase64(text: string): Generator<MediaSpot> {
  const taken = new Set<number>();
  for (const declared of text.matchAll(DECLARED_TYPE)) {
    const at = declared.index;
    const from = Math.max(0, text.lastIndexOf('{', at), text.lastIndexOf('}', at), at - MIN_RAW_CHARS - DECLARED_TYPE_WINDOW);
    let to = text.length;
    for (const brace of ['{', '}']) {
      const i = text.indexOf(brace, at);
      if (i !== -1 && i < to) to = i;
    }
    const object = text.slice(from, Math.min(to, at + declared[0].length + MIN_RAW_CHARS + DECLARED_TYPE_WINDOW));
    for (const key of object.matchAll(DATA_KEY)) {
      const start = from + key.index + key[0].length;
      const end = runEnd(text, start);
      const length = end - start;
      if (length < 4 || length >= MIN_RAW_CHARS || length % 4 === 1 || !closesAt(text, end) || taken.has(start)) continue;
      taken.add(start);
      yield spot(text, start, start, end, declared[1]!.toLowerCase(), 'base64_data_uri');
    }
  }
}
