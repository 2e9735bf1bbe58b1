/**
 * What stands in an exported attribute where media was (wire contract 5): the reference to the
 * uploaded media, or the marker of media that could not be uploaded (never its base64).
 */

/** `@@@obsMedia:type=<mime>|id=<mediaId>|source=<source>@@@`. */
export function mediaReference(contentType: string, mediaId: string, source: 'base64_data_uri' | 'bytes'): string {
  return `@@@obsMedia:type=${contentType}|id=${mediaId}|source=${source}@@@`;
}

/** `[media upload failed: <mime>, N bytes]`. */
export function mediaFailedMarker(contentType: string, byteLength: number): string {
  return `[media upload failed: ${contentType}, ${byteLength} bytes]`;
}
