/**
 * IO conversion: what a run's callback arguments become as its observation's input, output and
 * metadata. LangChain values are made plain (convert.ts), masked with the handler's `mask`, and
 * serialised at the callback, since LangChain may mutate them before the run ends.
 */
import type { BaseMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import type { MaskFunction, ObsObservationAttributes, ObservationType } from '@obs/core';
import { DEFAULT_REDACT_KEY_SET, maskValue, redact, toAttributeString } from '@obs/core/kit';
import { parseToolInput, toPlain, toPlainDocument, toPlainMessage, unwrapChainValues } from './convert.js';
import { generationEnd, generationStart } from './generation.js';
import { claimPrompt } from './run-metadata.js';
import type { RunState } from './run-tracker.js';

type Dict = Record<string, unknown>;

/** What a start callback says: the observation's type and its start attributes. */
export interface Opening {
  type: ObservationType;
  attrs: ObsObservationAttributes;
  /** `provider` metadata of a generation. */
  provider?: string;
  /** The run's metadata when the callback adds to LangChain's (a tool's call id). */
  metadata?: Dict;
}

export class RunIO {
  constructor(private readonly maskFn: MaskFunction | undefined) {}

  /** The user's mask over a structured value (a throwing mask gives `MASK_FAILED`). */
  mask(data: unknown): unknown {
    return maskValue(this.maskFn, data);
  }

  /** A value as written: masked, then serialised now. */
  value(data: unknown): string | undefined {
    return toAttributeString(this.mask(data));
  }

  /**
   * Metadata that may hold secrets (run metadata, model parameters' siblings, `traceMetadata`):
   * core's default redaction first (`apiKey`, `headers.Authorization`), then the mask.
   */
  secretsRedacted(meta: Dict | undefined): unknown {
    return this.mask(redact(meta, DEFAULT_REDACT_KEY_SET));
  }

  /** A streaming chain's input, which LangChain gives with its end. */
  deferredInput(run: RunState, kwargs: { inputs?: Dict } | undefined): ObsObservationAttributes {
    return run.deferredInput && kwargs?.inputs !== undefined ? { input: this.chainValues(kwargs.inputs, 'input') } : {};
  }

  /** A chain's inputs or outputs, LangChain's `{ input }` / `{ output }` wrapper dropped. */
  chainValues(values: unknown, key: 'input' | 'output'): string | undefined {
    return this.value(unwrapChainValues(values, key));
  }

  /** Any other value with LangChain's messages, prompt values and documents made plain. */
  plain(data: unknown): string | undefined {
    return this.value(toPlain(data));
  }

  toolInput(input: unknown): string | undefined {
    return this.value(parseToolInput(input));
  }

  documents(documents: unknown): string | undefined {
    return this.value(Array.isArray(documents) ? documents.map((d) => toPlainDocument(d as Dict)) : toPlain(documents));
  }

  /** A chat model's input: one conversation as its messages, several flattened. */
  chatInput(messages: BaseMessage[][]): unknown {
    return (messages.length === 1 ? messages[0]! : messages.flat()).map((m) => toPlainMessage(m));
  }

  /**
   * A model run's start: input (with the tools offered), model, parameters (redacted), provider,
   * and its prompt: its own `obsPrompt`, or the one a sibling prompt template offered.
   */
  generationStart(run: RunState, input: unknown, extraParams: Dict | undefined, metadata: Dict | undefined): Opening {
    const g = generationStart(input, extraParams, metadata);
    run.requestedModel = g.model;
    const attrs: ObsObservationAttributes = {
      input: this.value(g.input),
      model: g.model,
      modelParameters: redact(g.modelParameters, DEFAULT_REDACT_KEY_SET) as Dict | undefined,
      prompt: claimPrompt(run, metadata),
    };
    return { type: 'generation', attrs, provider: g.provider };
  }

  /** A model run's end: output, usage, the model that answered (if not the one asked for), finish reason, first-token time. */
  generationEnd(run: RunState, output: LLMResult): ObsObservationAttributes {
    const g = generationEnd(output);
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
    return this.mask({ interrupted: true, ...(interrupts ? { interrupts: toPlain(interrupts) } : {}) });
  }

  /** An agent action's or finish's event: its value under `input` or `output`, the agent's log as metadata. */
  agentEvent(key: 'input' | 'output', value: unknown, log: string | undefined): ObsObservationAttributes {
    return { [key]: this.plain(value), metadata: log ? this.mask({ log }) : undefined };
  }
}
