/** What the resource modules (datasets, prompts, experiments, trace deletion) answer; the server writes it. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** A JSON answer. */
export function answer(status: number, body: unknown): ApiAnswer {
  return { status, body };
}

/** A 4xx with a message. */
export function refuse(status: number, message: string): ApiAnswer {
  return { status, body: { message } };
}

/** A path segment as sent (`%2F` and friends decoded); the raw text when it is not valid. */
export function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The JSON object body of a request, or `undefined` when it is not one. */
export function objectBody(json: unknown): Record<string, unknown> | undefined {
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
}
