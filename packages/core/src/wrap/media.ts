/**
 * Media a model call sends, as the export pipeline's media step takes it: a base64 payload
 * with its declared type becomes a `data:` URI, which the step uploads (wire contract §5) at any
 * size and replaces by its reference, so no base64 stays in the observation. Mappings call
 * `mediaDataUri` where a provider puts base64 next to its type in its own shape (Anthropic's
 * `source: { type: 'base64', media_type, data }`, Gemini's `inlineData: { mimeType, data }`);
 * binary data (`Uint8Array`, as Bedrock sends images) needs nothing: the step uploads bytes it
 * finds in an observation by themselves, typed by their magic number.
 */
import { bytesToBase64 } from '../util/base64.js';

/**
 * `data:<mediaType>;base64,<data>` for a base64 string (or bytes) and its media type; `data`
 * unchanged when it is already a data URI, or when either is missing.
 */
export function mediaDataUri(mediaType: unknown, data: unknown): unknown {
  if (typeof mediaType !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(mediaType)) return data;
  if (data instanceof Uint8Array) return `data:${mediaType};base64,${bytesToBase64(data)}`;
  if (typeof data !== 'string' || data === '' || data.startsWith('data:')) return data;
  return `data:${mediaType};base64,${data}`;
}
