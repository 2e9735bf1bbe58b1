/**
 * LangChain's synchronous start hooks for tracers. Its CallbackManager calls `_createRunFor*Start`
 * on tracers (handlers with `_addRunToRunMap`) in the invoking code, before queueing background
 * callbacks: with `background: true`, the one place where the invocation's own async context and
 * start time are visible. Each hook only registers the run; the start callback makes the observation.
 */
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { RunKind } from './run-kind.js';

/** What LangChain passes the synchronous start hooks of tools and retrievers. */
type ToolStartArgs = [
  serialized: unknown,
  input: unknown,
  runId: string,
  parentRunId?: string,
  tags?: unknown,
  metadata?: unknown,
  name?: unknown,
];

export abstract class SyncStartHooks extends BaseCallbackHandler {
  /**
   * Records a run where LangChain starts it (the handler's "register"); never throws: these
   * hooks run in the app's own call.
   */
  protected abstract register(runId: string, parentRunId: string | undefined, kind: RunKind, serialized: unknown, name: unknown): void;

  /** @internal Marks this handler as a tracer so LangChain calls the synchronous start hooks. */
  _addRunToRunMap(run: unknown): unknown {
    return run;
  }

  /** @internal */
  _createRunForChainStart(
    chain: unknown,
    _inputs: unknown,
    runId: string,
    parentRunId?: string,
    _tags?: unknown,
    _metadata?: unknown,
    _runType?: unknown,
    name?: unknown,
  ): void {
    this.register(runId, parentRunId, 'chain', chain, name);
  }

  /** @internal */
  _createRunForLLMStart(
    llm: unknown,
    _prompts: unknown,
    runId: string,
    parentRunId?: string,
    _extra?: unknown,
    _tags?: unknown,
    _metadata?: unknown,
    name?: unknown,
  ): void {
    this.register(runId, parentRunId, 'llm', llm, name);
  }

  /** @internal Called like the LLM hook, with messages in place of prompts. */
  _createRunForChatModelStart(...args: Parameters<SyncStartHooks['_createRunForLLMStart']>): void {
    this._createRunForLLMStart(...args);
  }

  /** @internal */
  _createRunForToolStart(...args: ToolStartArgs): void {
    this.registerToolLike('tool', args);
  }

  /** @internal Called like the tool hook, with the query in place of the input. */
  _createRunForRetrieverStart(...args: ToolStartArgs): void {
    this.registerToolLike('retriever', args);
  }

  private registerToolLike(kind: RunKind, [serialized, _input, runId, parentRunId, _tags, _metadata, name]: ToolStartArgs): void {
    this.register(runId, parentRunId, kind, serialized, name);
  }
}
