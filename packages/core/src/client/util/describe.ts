/** A short, never-throwing description of an error or value for a log line. */
export function describeError(err: unknown): string {
  try {
    if (err instanceof Error) return err.message;
    return String(err);
  } catch {
    return 'unprintable error';
  }
}

/** JSON of `value` cut to `max` characters; never throws. */
export function summarize(value: unknown, max = 500): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = '[unserialisable]';
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
