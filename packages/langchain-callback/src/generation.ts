/** What a model run's callbacks say about the generation: model, parameters, tools, output, usage. */
import { isMessage, toPlain, toPlainMessage } from './convert.js';
import { usageDetails } from './usage.js';
import { type Dict, nonEmptyString } from '@obs/core/kit';

/** Invocation parameters that are not model parameters (they are input, or the model name). */
const NOT_PARAMETERS = new Set(['tools', 'functions', 'tool_choice', 'messages', 'model', 'model_name', 'modelName', 'prompt']);

/** LangSmith's normalised parameters in run metadata, used when the model reports none. */
const LS_PARAMETERS: Record<string, string> = { ls_temperature: 'temperature', ls_max_tokens: 'max_tokens', ls_stop: 'stop' };

export interface GenerationStart {
  input: unknown;
  model?: string;
  modelParameters?: Record<string, unknown>;
  provider?: string;
}

export interface GenerationEnd {
  output: unknown;
  usageDetails?: Record<string, number>;
  /** The model name the response reports. */
  model?: string;
  finishReason?: string;
}

/**
 * The start of a chat model or LLM run. `input` is the messages (made plain) or prompt strings;
 * tools offered to the model are added to it, since they are part of what the model was asked.
 */
export function generationStart(input: unknown, extraParams: Dict | undefined, metadata: Dict | undefined): GenerationStart {
  const invocation = asDict(extraParams?.['invocation_params']);
  const callOptions = asDict(extraParams?.['options']);
  const tools = invocation?.['tools'] ?? callOptions?.['tools'] ?? invocation?.['functions'];
  const toolChoice = invocation?.['tool_choice'] ?? callOptions?.['tool_choice'];
  const out: GenerationStart = {
    input: tools !== undefined || toolChoice !== undefined ? withTools(input, tools, toolChoice) : input,
  };
  const model =
    nonEmptyString(invocation?.['model']) ??
    nonEmptyString(invocation?.['model_name']) ??
    nonEmptyString(invocation?.['modelName']) ??
    nonEmptyString(metadata?.['ls_model_name']);
  if (model) out.model = model;
  const params: Dict = {};
  let any = false;
  if (metadata) {
    for (const key in LS_PARAMETERS) {
      const v = metadata[key];
      if (v !== undefined && v !== null) {
        params[LS_PARAMETERS[key]!] = v;
        any = true;
      }
    }
  }
  if (invocation) {
    for (const key in invocation) {
      const v = invocation[key];
      if (v === undefined || NOT_PARAMETERS.has(key)) continue;
      params[key] = v;
      any = true;
    }
  }
  if (any) out.modelParameters = params;
  const provider = nonEmptyString(metadata?.['ls_provider']);
  if (provider) out.provider = provider;
  return out;
}

/**
 * The generations of every prompt, in order (`generations.flat()` without its cost: `flat()` was
 * the largest single line of the handler's CPU profile).
 */
function generationsOf(lists: GenerationLike[][] | undefined): GenerationLike[] {
  const out: GenerationLike[] = [];
  if (!Array.isArray(lists)) return out;
  for (const list of lists) {
    if (Array.isArray(list)) {
      for (const g of list) if (g) out.push(g);
    } else if (list) out.push(list as GenerationLike);
  }
  return out;
}

function withTools(input: unknown, tools: unknown, toolChoice: unknown): Dict {
  const out: Dict = { messages: input };
  if (tools !== undefined) out['tools'] = tools;
  if (toolChoice !== undefined) out['tool_choice'] = toolChoice;
  return out;
}

interface GenerationLike {
  text?: string;
  message?: unknown;
  generationInfo?: Dict;
}

/** The end of a model run, from its `LLMResult`. */
export function generationEnd(result: { generations?: GenerationLike[][]; llmOutput?: Dict } | undefined): GenerationEnd {
  const candidates = generationsOf(result?.generations);
  const outputs = candidates.map((g) => (isMessage(g.message) ? toPlainMessage(g.message) : (g.text ?? toPlain(g))));
  const out: GenerationEnd = { output: outputs.length === 1 ? outputs[0] : outputs };
  let usage: Dict | undefined;
  let model: string | undefined;
  let finishReason: string | undefined;
  for (const g of candidates) {
    const msg = asDict(g.message);
    const rm = asDict(msg?.['response_metadata']);
    usage ??= asDict(msg?.['usage_metadata']);
    model ??= nonEmptyString(rm?.['model_name']) ?? nonEmptyString(rm?.['model']) ?? nonEmptyString(g.generationInfo?.['model_name']);
    finishReason ??=
      nonEmptyString(rm?.['finish_reason']) ?? nonEmptyString(rm?.['stop_reason']) ?? nonEmptyString(g.generationInfo?.['finish_reason']);
  }
  const llmOutput = result?.llmOutput;
  model ??= nonEmptyString(llmOutput?.['model_name']) ?? nonEmptyString(llmOutput?.['model']);
  const details = usageDetails(usage, asDict(llmOutput?.['tokenUsage']));
  if (details) out.usageDetails = details;
  if (model) out.model = model;
  if (finishReason) out.finishReason = finishReason;
  return out;
}

function asDict(v: unknown): Dict | undefined {
  return typeof v === 'object' && v !== null ? (v as Dict) : undefined;
}
