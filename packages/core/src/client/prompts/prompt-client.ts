/** Prompt objects returned by `prompt.get`: text and chat, with `compile`, `getLangchainPrompt` and `toJSON`. */
import type { ChatMessage, ChatPlaceholder, PromptRecord } from '../api/types.js';
import { compileTemplate, toLangchainTemplate } from './template.js';

/** One entry of a chat prompt: a message or a placeholder. */
export type ChatPromptEntry = ChatMessage | ChatPlaceholder;

/** A chat message template LangChain's `ChatPromptTemplate.fromMessages` accepts: `[role, template]`. */
export type LangchainMessageTemplate = [string, string];

/** What `toJSON()` gives: the prompt as plain data (`JSON.stringify(prompt)` uses it). */
export interface PromptJson {
  name: string;
  version: number;
  type: 'text' | 'chat';
  prompt: string | ChatPromptEntry[];
  config: unknown;
  labels: string[];
  tags: string[];
  isFallback: boolean;
}

function isPlaceholder(entry: unknown): entry is ChatPlaceholder {
  return typeof entry === 'object' && entry !== null && (entry as { type?: unknown }).type === 'placeholder';
}

abstract class BasePromptClient {
  readonly name: string;
  readonly version: number;
  readonly config: unknown;
  readonly labels: string[];
  readonly tags: string[];
  /** `true` when `prompt.get` could not read the prompt and used its `fallback`; such a prompt is never linked to generations. */
  readonly isFallback: boolean;
  abstract readonly type: 'text' | 'chat';
  abstract readonly prompt: string | ChatPromptEntry[];

  protected constructor(record: PromptRecord, isFallback: boolean) {
    this.name = record.name;
    this.version = record.version;
    this.config = record.config ?? {};
    this.labels = Array.isArray(record.labels) ? record.labels : [];
    this.tags = Array.isArray(record.tags) ? record.tags : [];
    this.isFallback = isFallback;
  }

  /** The prompt as plain data (what `JSON.stringify(prompt)` writes). */
  toJSON(): PromptJson {
    const { name, version, type, prompt, config, labels, tags, isFallback } = this;
    return { name, version, type, prompt, config, labels, tags, isFallback };
  }
}

/** A text prompt. */
export class TextPromptClient extends BasePromptClient {
  readonly type = 'text' as const;
  readonly prompt: string;

  constructor(record: PromptRecord, isFallback = false) {
    super(record, isFallback);
    this.prompt = typeof record.prompt === 'string' ? record.prompt : String(record.prompt);
  }

  /** The text with `{{variables}}` replaced. */
  compile(variables?: Record<string, unknown>): string {
    return compileTemplate(this.prompt, variables);
  }

  /** The text for `PromptTemplate.fromTemplate` (`{{x}}` -> `{x}`, other braces escaped). */
  getLangchainPrompt(): string {
    return toLangchainTemplate(this.prompt);
  }
}

/** A chat prompt: messages and named placeholders. */
export class ChatPromptClient extends BasePromptClient {
  readonly type = 'chat' as const;
  readonly prompt: ChatPromptEntry[];

  constructor(record: PromptRecord, isFallback = false) {
    super(record, isFallback);
    this.prompt = Array.isArray(record.prompt) ? (record.prompt as ChatPromptEntry[]) : [];
  }

  /**
   * The messages with `{{variables}}` replaced in their content; each placeholder is replaced by
   * the messages given for it in `placeholders` (a placeholder with none given stays as it is).
   */
  compile(variables?: Record<string, unknown>, placeholders?: Record<string, ChatMessage[]>): Array<ChatMessage | ChatPlaceholder> {
    const out: Array<ChatMessage | ChatPlaceholder> = [];
    for (const entry of this.prompt) {
      if (isPlaceholder(entry)) {
        const fill = placeholders?.[entry.name];
        if (Array.isArray(fill)) out.push(...fill);
        else out.push({ ...entry });
      } else {
        out.push({ ...entry, content: typeof entry.content === 'string' ? compileTemplate(entry.content, variables) : entry.content });
      }
    }
    return out;
  }

  /**
   * Message templates for `ChatPromptTemplate.fromMessages`: `[role, template]` with `{x}`
   * variables, and each placeholder as `['placeholder', '{name}']` (LangChain's MessagesPlaceholder).
   */
  getLangchainPrompt(): LangchainMessageTemplate[] {
    return this.prompt.map(
      (entry): LangchainMessageTemplate =>
        isPlaceholder(entry) ? ['placeholder', `{${entry.name}}`] : [entry.role, toLangchainTemplate(String(entry.content))],
    );
  }
}

/** A prompt object of either kind. */
export type PromptClient = TextPromptClient | ChatPromptClient;

/** The prompt object of a record from the server (or of a fallback). */
export function toPromptClient(record: PromptRecord, isFallback = false): PromptClient {
  return record.type === 'chat' || Array.isArray(record.prompt)
    ? new ChatPromptClient(record, isFallback)
    : new TextPromptClient(record, isFallback);
}
