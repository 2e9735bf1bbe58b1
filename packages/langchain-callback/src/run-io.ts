/**
 * IO conversion: what a run's callback arguments become as its observation's input, output and
 * metadata. LangChain values are made plain (convert.ts), masked with the handler's `mask`, and
 * serialised at the callback, since LangChain may mutate them before the run ends. Nothing here
 * throws: a value that cannot be made plain is written as LangChain gave it, and core's
 * serialiser records what it cannot read as placeholders.
 */
import type { BaseMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import type { MaskFunction, ObsObservationAttributes, ObservationType } from '@obs/core';
import { DEFAULT_REDACT_KEY_SET, type Dict, maskValue, redact, toAttributeString, wholeMediaText } from '@obs/core/kit';
import { parseToolInput, toPlain, toPlainDocument, toPlainMessage, unwrapChainValues } from './convert.js';
import { generationEnd, generationStart, type GenerationEnd, type GenerationStart } from './generation.js';
import { noteUnreadable, placeholder, readableRecord } from './safety.js';
import { claimPrompt } from './run-metadata.js';
import type { RunState } from './run-tracker.js';

/** What a start callback says: the observation's type and its start attributes. */
export interface Opening {
  type: ObservationType;
  attrs: ObsObservationAttributes;
  /** `provider` metadata of a generation. */
  provider?: string;
  /** The run's metadata when the callback adds to LangChain's (a tool's call id). */
  metadata?: Dict;
}

const chainInput = (values: unknown) => unwrapChainValues(values, 'input');
const chainOutput = (values: unknown) => unwrapChainValues(values, 'output');
const plainDocuments = (documents: unknown) =>
  Array.isArray(documents) ? documents.map((d) => toPlainDocument(d as Dict)) : toPlain(documents);

export class RunIO {
  constructor(private readonly maskFn: MaskFunction | undefined) {}

  /** The user's mask over a structured value (a throwing mask gives `MASK_FAILED`). */
  mask(data: unknown): unknown {
    return maskValue(this.maskFn, data);
  }

  /** A value as written: masked, then serialised now. */
  value(data: unknown): string | undefined {
    // Media whole, for the export to upload (a cut data URI could not be).
    return toAttributeString(this.mask(data), { media: wholeMediaText });
  }

  /**
   * Metadata that may hold secrets (run metadata, `traceMetadata`): core's default redaction
   * first (`apiKey`, `headers.Authorization`), then the mask. A key that cannot be read or
   * walked becomes a placeholder; the other keys are kept.
   */
  secretsRedacted(meta: unknown): unknown {
    let redacted: unknown;
    try {
      redacted = redact(meta, DEFAULT_REDACT_KEY_SET);
    } catch (err) {
      noteUnreadable('metadata', err);
      redacted = redactEach(readableRecord(meta));
    }
    return this.mask(redacted);
  }

  /** A chain's inputs, LangChain's `{ input }` wrapper dropped. */
  chainInput(values: unknown): string | undefined {
    return this.written(values, chainInput);
  }

  /** A chain's outputs, LangChain's `{ output }` wrapper dropped. */
  chainOutput(values: unknown): string | undefined {
    return this.written(values, chainOutput);
  }

  /** Whether a chain streams its input, so LangChain gives it with the end (`extra.lc_defers_inputs`). */
  defersInput(extra: Dict | undefined): boolean {
    try {
      return extra?.['lc_defers_inputs'] === true;
    } catch (err) {
      noteUnreadable("a chain's extra arguments", err);
      return false;
    }
  }

  /** A streaming chain's input, which LangChain gives with its end. */
  deferredInput(run: RunState, kwargs: { inputs?: Dict } | undefined): ObsObservationAttributes {
    if (!run.deferredInput) return {};
    let inputs: unknown;
    try {
      inputs = kwargs?.inputs;
    } catch (err) {
      noteUnreadable("a chain's deferred input", err);
      return { input: placeholder(err) };
    }
    return inputs !== undefined ? { input: this.chainInput(inputs) } : {};
  }

  /** Any other value with LangChain's messages, prompt values and documents made plain. */
  plain(data: unknown): string | undefined {
    return this.written(data, toPlain);
  }

  toolInput(input: unknown): string | undefined {
    return this.written(input, parseToolInput);
  }

  documents(documents: unknown): string | undefined {
    return this.written(documents, plainDocuments);
  }

  /** A chat model's input: one conversation as its messages, several flattened. */
  chatInput(messages: BaseMessage[][]): unknown {
    try {
      return (messages.length === 1 ? messages[0]! : messages.flat()).map((m) => toPlainMessage(m));
    } catch (err) {
      noteUnreadable("a chat model's messages", err);
      return messages;
    }
  }

  /** An LLM's input: its prompt, or its prompts. */
  prompts(prompts: unknown[]): unknown {
    try {
      return prompts.length === 1 ? prompts[0] : prompts;
    } catch (err) {
      noteUnreadable("an LLM's prompts", err);
      return prompts;
    }
  }

  /**
   * A model run's start: input (with the tools offered), model, parameters (redacted), provider,
   * and its prompt: its own `obsPrompt`, or the one a sibling prompt template offered.
   */
  generationStart(run: RunState, input: unknown, extraParams: Dict | undefined, metadata: Dict | undefined): Opening {
    let g: GenerationStart;
    try {
      g = generationStart(input, extraParams, metadata);
      g.modelParameters = redact(g.modelParameters, DEFAULT_REDACT_KEY_SET) as Dict | undefined;
    } catch (err) {
      noteUnreadable("a model's invocation parameters", err);
      g = { input };
    }
    run.requestedModel = g.model;
    const attrs: ObsObservationAttributes = {
      input: this.value(g.input),
      model: g.model,
      modelParameters: g.modelParameters,
      prompt: claimPrompt(run, metadata),
    };
    return { type: 'generation', attrs, provider: g.provider };
  }

  /** A model run's end: output, usage, the model that answered (if not the one asked for), finish reason, first-token time. */
  generationEnd(run: RunState, output: LLMResult): ObsObservationAttributes {
    let g: GenerationEnd;
    try {
      g = generationEnd(output);
    } catch (err) {
      noteUnreadable("a model's result", err);
      g = { output };
    }
    const attrs: ObsObservationAttributes = { output: this.value(g.output) };
    if (g.usageDetails) attrs.usageDetails = g.usageDetails;
    if (run.firstTokenAt !== undefined) attrs.completionStartTime = new Date(run.firstTokenAt);
    let meta: Dict | undefined;
    if (g.model && g.model !== run.requestedModel) {
      attrs.model = g.model;
      if (run.requestedModel) (meta ??= {})['requested_model'] = run.requestedModel;
    }
    if (g.finishReason) (meta ??= {})['finish_reason'] = g.finishReason;
    if (meta) attrs.metadata = this.mask(meta);
    return attrs;
  }

  /** A LangGraph interrupt's metadata: `interrupted: true` and the interrupt values. */
  interruptMetadata(interrupts: unknown[] | undefined): unknown {
    return this.mask({ interrupted: true, ...(interrupts ? { interrupts: this.plainOrAsIs(interrupts, toPlain) } : {}) });
  }

  /** An agent action's or finish's event: its value under `input` or `output`, the agent's log as metadata. */
  agentEvent(key: 'input' | 'output', value: unknown, log: unknown): ObsObservationAttributes {
    return { [key]: this.plain(value), metadata: log ? this.mask({ log }) : undefined };
  }

  /** `value` made plain by `plain`, masked and serialised. */
  private written(value: unknown, plain: (value: unknown) => unknown): string | undefined {
    return this.value(this.plainOrAsIs(value, plain));
  }

  /** `value` made plain, or as LangChain gave it when it cannot be read that far. */
  private plainOrAsIs(value: unknown, plain: (value: unknown) => unknown): unknown {
    try {
      return plain(value);
    } catch (err) {
      noteUnreadable('a value LangChain passed', err);
      return value;
    }
  }
}

/** Each key redacted on its own: one that cannot be walked becomes a placeholder. */
function redactEach(meta: Dict | undefined): Dict | undefined {
  if (!meta) return undefined;
  const out: Dict = {};
  for (const key in meta) {
    try {
      out[key] = (redact({ [key]: meta[key] }, DEFAULT_REDACT_KEY_SET) as Dict)[key];
    } catch (err) {
      out[key] = placeholder(err);
    }
  }
  return out;
}
