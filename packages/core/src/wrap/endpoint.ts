/**
 * What a provider's mapping says about one endpoint of its API: how to read the request when
 * the call starts, the response when it ends, and (for a streaming endpoint) its chunks as they
 * pass. Readers are plain functions of plain values: they never see the observation, the SDK's
 * classes or the network, and a reader that throws costs the recorded field, never the call.
 */

/** Read from the request: written when the observation starts. */
export interface CallStart {
  model?: unknown;
  input?: unknown;
  modelParameters?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/** Read from the response (or a stream's chunks so far): written when the observation ends. */
export interface CallResult {
  output?: unknown;
  /** The model as the response names it (it replaces the requested one when it is a string). */
  model?: unknown;
  usageDetails?: Record<string, number>;
  costDetails?: Record<string, number>;
  /** Metadata the response adds; a key already set when the call started (options, request) is kept. */
  metadata?: Record<string, unknown>;
  /** Set when the response itself says the call did not complete (a refusal, a truncation). */
  level?: 'WARNING' | 'ERROR';
  statusMessage?: string;
}

/** Reads one stream's chunks as the caller consumes them. */
export interface StreamReader {
  /** Takes a chunk; true when it carries output (the first such chunk is the completion start). */
  read(chunk: unknown): boolean;
  /** What the chunks so far add up to; `finished` once the model's last chunk was seen. */
  result(): CallResult & { finished: boolean };
}

/** One endpoint: its observation's name and type, and its readers. */
export interface ModelEndpoint<Request = Record<string, unknown>> {
  /** The observation's name unless the client's options name it, e.g. `anthropic.messages.create`. */
  name: string;
  type: 'generation' | 'embedding';
  request(request: Request): CallStart;
  response(value: unknown): CallResult;
  /** A fresh reader per streamed call; without one a stream passes unread and ends the call when it ends. */
  stream?(): StreamReader;
}

/** The listed keys of `body` that are set (not `undefined` or `null`), or `undefined` when none is. */
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
