/** Base64 of raw bytes with `btoa` only, so it runs on Node, edge and in browsers alike (digests, downloaded media). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunks keep `String.fromCharCode(...)` below the engine's argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
