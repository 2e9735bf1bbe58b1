/**
 * `observeBedrock(client)`: the client to use instead of `client`, whose Converse,
 * ConverseStream, InvokeModel and InvokeModelWithResponseStream calls become obs generations (an
 * embedding model's InvokeModel an embedding), nested under the active observation. A
 * `BedrockRuntimeClient` has one method, `send(command)`: it is traced, dispatched on the
 * command's operation (read from its schema, else its class name, so a minified bundle of a
 * current SDK still reads it); the aggregated `BedrockRuntime` client's `converse()`,
 * `converseStream()`, `invokeModel()` and `invokeModelWithResponseStream()` too. A stream sits in
 * the output (`stream` or `body`): the caller gets the output with that stream watched. Calls run
 * with OpenTelemetry tracing suppressed below the generation, so OpenInference's or
 * OpenTelemetry's instrumentation of the same `send` records no second span of the call.
 */
import {
  type Dict,
  type ClientSpec,
  followStreamIn,
  isDict,
  logger,
  type ModelEndpoint,
  observeClient,
  type SelectedCall,
  type TracedMethod,
} from '@obs/core/kit';
import { CONVERSE, CONVERSE_STREAM } from './converse.js';
import { INVOKE_EMBEDDING, INVOKE_MODEL, INVOKE_MODEL_STREAM } from './invoke-model.js';

/** Options of {@link observeBedrock}. */
export interface ObserveBedrockOptions {
  /** Name of every observation of this client; default `bedrock.converse`, `bedrock.converse_stream`, `bedrock.invoke_model`, ... */
  name?: string;
  /** Metadata on every observation of this client. */
  metadata?: Record<string, unknown>;
}

/** The traced operations: their endpoint, and where their output's stream is. */
const OPERATIONS: Record<string, { endpoint: ModelEndpoint<Dict>; stream?: 'stream' | 'body' }> = {
  Converse: { endpoint: CONVERSE },
  ConverseStream: { endpoint: CONVERSE_STREAM, stream: 'stream' },
  InvokeModel: { endpoint: INVOKE_MODEL },
  InvokeModelWithResponseStream: { endpoint: INVOKE_MODEL_STREAM, stream: 'body' },
};

/** Embedding models of `InvokeModel` (Titan, Cohere, Nova multimodal embeddings). */
const EMBEDDING_MODEL = /embed/i;

/** The call of `operation` with `input`; `options` is the `send` options (`abortSignal`). */
function selected(operation: string, input: unknown, options: unknown): SelectedCall | undefined {
  const op = OPERATIONS[operation];
  if (!op || !isDict(input)) return undefined;
  const embedding = operation === 'InvokeModel' && typeof input['modelId'] === 'string' && EMBEDDING_MODEL.test(input['modelId']);
  const signal = isDict(options) && options['abortSignal'] instanceof AbortSignal ? options['abortSignal'] : undefined;
  return { endpoint: embedding ? INVOKE_EMBEDDING : op.endpoint, request: input, streaming: op.stream !== undefined, signal };
}

/** The command's operation: `schema[2]` of a current SDK's command, else its class name less `Command`. */
function operationOf(command: Dict): string {
  const schema = command['schema'];
  if (Array.isArray(schema) && typeof schema[2] === 'string') return schema[2];
  return String((command as { constructor?: { name?: unknown } }).constructor?.name ?? '').replace(/Command$/, '');
}

/** A streaming output is handed back with its stream (`stream`, `body`) watched. */
const followOutput = followStreamIn('stream', 'body');

const SEND: TracedMethod = {
  // `send(command, callback)` (callback style) runs untraced: it returns nothing to follow.
  select: (args) =>
    isDict(args[0]) && typeof args.at(-1) !== 'function' ? selected(operationOf(args[0]), args[0]['input'], args[1]) : undefined,
  follow: followOutput,
};

/** A method of the aggregated client (`converse(input)`): the same as `send` of its command. */
const aggregated = (operation: string): TracedMethod => ({
  select: (args) => (typeof args.at(-1) !== 'function' ? selected(operation, args[0], args[1]) : undefined),
  follow: followOutput,
});

const SPEC: ClientSpec = {
  adapter: '@obs/bedrock',
  quiet: true,
  methods: {
    send: SEND,
    converse: aggregated('Converse'),
    converseStream: aggregated('ConverseStream'),
    invokeModel: aggregated('InvokeModel'),
    invokeModelWithResponseStream: aggregated('InvokeModelWithResponseStream'),
  },
};

/**
 * Returns `client` (`new BedrockRuntimeClient(...)` or `new BedrockRuntime(...)` of
 * `@aws-sdk/client-bedrock-runtime` 3.x) observed; `client` itself stays as it was. The first call
 * starts obs (`initObs()`) if nothing has yet. Never throws: a client it cannot read is returned
 * as it is, with one warning.
 *
 * @example
 * ```ts
 * const bedrock = observeBedrock(new BedrockRuntimeClient({ region: 'us-east-1' }));
 * ```
 */
export function observeBedrock<T extends object>(client: T, options: ObserveBedrockOptions = {}): T {
  if (typeof (client as Dict)['send'] !== 'function') {
    logger.warn('observeBedrock: this is not a Bedrock Runtime client (no send); left as it is');
    return client;
  }
  return observeClient(client, SPEC, options);
}
