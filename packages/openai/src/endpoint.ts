/**
 * What obs knows about one OpenAI endpoint: how to read its request when the call starts, its
 * response when the call ends, and (for streaming endpoints) its chunks as they pass.
 */

/** Read from the request: written when the observation starts. */
export interface CallStart {
  model?: unknown;
  input?: unknown;
  modelParameters?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/** Read from the response (or the stream's chunks): written when the observation ends. */
export interface CallResult {
  output?: unknown;
  model?: unknown;
  usageDetails?: Record<string, number>;
  /** Set when the response itself says the call did not complete (e.g. a Responses `incomplete` status). */
  level?: 'WARNING' | 'ERROR';
  statusMessage?: string;
}

/** Reads one stream's chunks as the caller consumes them. */
export interface StreamReader {
  /** Takes a chunk; true when it carries output (its arrival is the completion start). */
  read(chunk: unknown): boolean;
  /** What the chunks so far add up to; `finished` once the model's last chunk was seen. */
  result(): CallResult & { finished: boolean };
}

/** One endpoint: its observation's name and type, and its readers. */
export interface Endpoint {
  name: string;
  type: 'generation' | 'embedding';
  request(body: Record<string, unknown>): CallStart;
  response(value: unknown): CallResult;
  stream?(): StreamReader;
}

/** The listed request keys that are set, or `undefined` when none is. */
export function pick(body: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const key of keys) {
    const v = body[key];
    if (v === undefined || v === null) continue;
    out ??= {};
    out[key] = v;
  }
  return out;
}
