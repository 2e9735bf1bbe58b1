import { truncateText } from '../../util/capture.js';
import { safeStringify } from '../../util/serialize.js';

/** A short, never-throwing description of an error or value for a log line. */
export function describeError(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'unprintable error';
  }
}

/** JSON of `value` (core's never-throwing serializer) cut to `max` characters with the visible marker. */
export function summarize(value: unknown, max = 500): string {
  // safeStringify returns undefined for undefined, like JSON.stringify.
  const text = typeof value === 'string' ? value : ((safeStringify(value) as string | undefined) ?? String(value));
  return truncateText(text, max);
}
