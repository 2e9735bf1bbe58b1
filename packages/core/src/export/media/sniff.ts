/**
 * The media type of bytes by their first bytes (their "magic number"), for media found without a
 * declared type: a bare base64 string, a `Buffer` in an input. Only formats a model takes or
 * gives (images, audio, video, PDF) are named; anything else is not media to obs.
 */

/** How many leading bytes `sniffMediaType` reads. */
export const SNIFF_BYTES = 16;

/** The media type of `head` (the first bytes of the content), or undefined when it is none obs knows. */
export function sniffMediaType(head: Uint8Array): string | undefined {
  const at = (offset: number, ...bytes: number[]) => bytes.every((b, i) => head[offset + i] === b);
  const ascii = (offset: number, text: string) => at(offset, ...Array.from(text, (c) => c.charCodeAt(0)));
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF')) {
    if (ascii(8, 'WEBP')) return 'image/webp';
    if (ascii(8, 'WAVE')) return 'audio/wav';
    return undefined;
  }
  if (ascii(0, '%PDF-')) return 'application/pdf';
  if (ascii(0, 'ID3')) return 'audio/mpeg';
  if (ascii(0, 'OggS')) return 'audio/ogg';
  if (ascii(0, 'fLaC')) return 'audio/flac';
  if (at(0, 0x1a, 0x45, 0xdf, 0xa3)) return 'video/webm';
  if (ascii(4, 'ftyp')) {
    const brand = String.fromCharCode(...head.subarray(8, 12));
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (brand === 'heic' || brand === 'heix' || brand === 'mif1') return 'image/heic';
    if (brand === 'M4A ') return 'audio/mp4';
    return 'video/mp4';
  }
  // An MPEG audio frame (MP3 without tags): 11 sync bits, layer III.
  if (head[0] === 0xff && ((head[1] ?? 0) & 0xe6) === 0xe2) return 'audio/mpeg';
  return undefined;
}
