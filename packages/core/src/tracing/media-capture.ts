/**
 * Binary data (`Buffer`, typed arrays, `ArrayBuffer`) in an observation's input, output or
 * metadata, kept by reference until the span is exported: the attribute holds a token in its
 * place, and the export uploads the bytes as media and puts a reference where the token stands
 * (or, with media off, the `[binary N bytes, type]` description the token extends). The bytes
 * are read when the span is exported, shortly after it ends, not copied on the request path.
 * Base64 media in those values is written whole for the export to upload, by the rule the export
 * gives (`keepMediaWhole`, set by `ObsSpanProcessor`: without obs's export, media is text).
 */
import type { MediaText, SerializeHooks } from '../util/serialize.js';
import { MEDIA_BYTES } from './span-slots.js';

/** One binary value of a span, by the token written in its place. */
export interface CapturedBinary {
  bytes: Uint8Array;
  /** `[binary N bytes, type]`: what stands in its place when it is not uploaded. */
  description: string;
}

type Holder = { [MEDIA_BYTES]?: Map<string, CapturedBinary> };

let counter = 0;

/**
 * What ends every token, before its number: `[binary N bytes, type, obs media <n>]`. The export
 * finds tokens by it, in one pass over a text however many a span holds.
 */
export const TOKEN_MARK = ', obs media ';

/** The export's media rule for observation values, once an export that uploads media exists. */
let mediaRule: (() => MediaText) | undefined;

/** Sets the rule by which observation values write base64 media whole (`export/media/media-text.ts`). */
export function keepMediaWhole(rule: () => MediaText): void {
  mediaRule = rule;
}

/** Serializer hooks that keep binary data on `holder` (a span, or an object moved onto one later), and media whole. */
export function captureBinaries(holder: object): SerializeHooks {
  return { binary: (value, description) => keep(holder as Holder, value, description), media: mediaRule };
}

/** The binary data kept on `span`, by token (undefined when there is none). */
export function capturedBinaries(span: object): ReadonlyMap<string, CapturedBinary> | undefined {
  return (span as Holder)[MEDIA_BYTES];
}

/** Moves what `from` kept onto `to` (attributes serialised before their span existed). */
export function moveCapturedBinaries(from: object, to: object): void {
  const kept = (from as Holder)[MEDIA_BYTES];
  if (!kept) return;
  const target = ((to as Holder)[MEDIA_BYTES] ??= new Map());
  for (const [token, binary] of kept) target.set(token, binary);
  (from as Holder)[MEDIA_BYTES] = undefined;
}

/** Lets go of the binary data kept on `span` (its export wrote what stands in its place). */
export function dropCapturedBinaries(span: object): void {
  if ((span as Holder)[MEDIA_BYTES]) (span as Holder)[MEDIA_BYTES] = undefined;
}

function keep(holder: Holder, value: object, description: string): string | undefined {
  const bytes = bytesOf(value);
  if (!bytes || bytes.byteLength === 0) return undefined;
  // The description with a number no other value of the process has: the export finds it by text.
  const token = `${description.slice(0, -1)}${TOKEN_MARK}${++counter}]`;
  (holder[MEDIA_BYTES] ??= new Map()).set(token, { bytes, description });
  return token;
}

function bytesOf(value: object): Uint8Array | undefined {
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  const tag = Object.prototype.toString.call(value);
  // A Blob is read asynchronously: it stays described.
  if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return new Uint8Array(value as ArrayBuffer);
  return undefined;
}
