/** Fake models for what LangChain's own fakes do not do: usage, tool calls, failing streams. */
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel, type BaseChatModelCallOptions } from '@langchain/core/language_models/chat_models';
import { type AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';

interface ToolCallOptions extends BaseChatModelCallOptions {
  tools?: unknown[];
}

/**
 * Looks like a provider model: reports the model it was asked for in its invocation params, a
 * dated model name in the response, usage with cache and reasoning details, and tool calls.
 */
export class UsageChatModel extends BaseChatModel<ToolCallOptions> {
  constructor(private readonly reply: AIMessage) {
    super({});
  }
  _llmType(): string {
    return 'usage-fake';
  }
  override invocationParams(options?: this['ParsedCallOptions']): Record<string, unknown> {
    return { model: 'gpt-4o', temperature: 0.2, max_tokens: 256, tools: options?.tools, tool_choice: options?.tool_choice };
  }
  override getLsParams(options: this['ParsedCallOptions']) {
    return { ...super.getLsParams(options), ls_provider: 'openai', ls_model_name: 'gpt-4o' };
  }
  async _generate(_messages: BaseMessage[]): Promise<ChatResult> {
    return { generations: [{ text: typeof this.reply.content === 'string' ? this.reply.content : '', message: this.reply }] };
  }
}

/** Streams `tokens`, then throws `error` (after the first token when `failAfter` is 1). */
export class FailingStreamModel extends BaseChatModel {
  constructor(
    private readonly tokens: string[],
    private readonly failAfter: number,
    private readonly error = 'provider connection reset',
  ) {
    super({});
  }
  _llmType(): string {
    return 'failing-fake';
  }
  async _generate(): Promise<ChatResult> {
    throw new Error(this.error);
  }
  override async *_streamResponseChunks(
    _m: BaseMessage[],
    _o: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    for (let i = 0; i < this.tokens.length; i++) {
      if (i === this.failAfter) throw new Error(this.error);
      const text = this.tokens[i]!;
      await new Promise((r) => setTimeout(r, 5));
      yield new ChatGenerationChunk({ text, message: new AIMessageChunk({ content: text }) });
      await runManager?.handleLLMNewToken(text);
    }
    if (this.failAfter >= this.tokens.length) throw new Error(this.error);
  }
}
