/**
 * Base64 text to bytes, as cheaply as the runtime allows: on Node.js the text is decoded into a
 * buffer of its exact size (simdutf: ~0.1 ms per MB on the event loop, less than handing the text
 * to a worker thread would cost, since a string is copied to get there), elsewhere with
 * `Uint8Array.fromBase64` or `atob`.
 */
type NodeBuffer = Uint8Array & { write(text: string, offset: number, encoding: 'base64'): number };
interface BufferClass {
  allocUnsafeSlow(size: number): NodeBuffer;
}
type FromBase64 = (text: string) => Uint8Array;

/** How many bytes `length` characters of base64 (padding included) decode to. */
export function decodedLength(text: string, start: number, end: number): number {
  let length = end - start;
  let padding = 0;
  while (padding < 2 && length > 0 && text.charCodeAt(start + length - 1) === 61 /* = */) {
    length--;
    padding++;
  }
  return Math.floor((length * 3) / 4);
}

/** The bytes of the base64 text `text.slice(start, end)` (standard alphabet, padding optional). */
export function decodeBase64(text: string, start: number, end: number): Uint8Array {
  const size = decodedLength(text, start, end);
  const slice = start === 0 && end === text.length ? text : text.slice(start, end);
  // Read when used: an edge runtime may refuse a Node.js global at module evaluation.
  const NodeBuffer = (globalThis as { Buffer?: BufferClass }).Buffer;
  const fromBase64 = (Uint8Array as unknown as { fromBase64?: FromBase64 }).fromBase64;
  if (NodeBuffer) {
    // Not from the pool: the bytes may live until their upload ends.
    const out = NodeBuffer.allocUnsafeSlow(size);
    const written = out.write(slice, 0, 'base64');
    return written === size ? out : out.subarray(0, written);
  }
  if (fromBase64) return fromBase64(padded(slice));
  const binary = atob(padded(slice));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function padded(text: string): string {
  const rest = text.length % 4;
  return rest === 0 ? text : text + '='.repeat(4 - rest);
}
