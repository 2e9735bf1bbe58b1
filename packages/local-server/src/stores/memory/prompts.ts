/**
 * Prompt versions kept in memory, by name.
 */
import type { PromptStore, StoredPrompt } from '../types.js';

/** In-memory store of prompt versions. */
export class MemoryPromptStore implements PromptStore {
  private readonly byName = new Map<string, StoredPrompt[]>();

  versions(name: string): StoredPrompt[] {
    return [...(this.byName.get(name) ?? [])];
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  save(prompt: StoredPrompt): void {
    const list = this.byName.get(prompt.name) ?? [];
    const index = list.findIndex((p) => p.version === prompt.version);
    if (index >= 0) list[index] = prompt;
    else list.push(prompt);
    list.sort((a, b) => a.version - b.version);
    this.byName.set(prompt.name, list);
  }

  clear(): void {
    this.byName.clear();
  }
}
