/**
 * Prompt versions kept in SQLite, by name and version.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { PromptStore, StoredPrompt } from '../types.js';

/** SQLite store of prompt versions. */
export class SqlitePromptStore implements PromptStore {
  constructor(private readonly db: DatabaseSync) {}

  versions(name: string): StoredPrompt[] {
    const rows = this.db.prepare('SELECT data FROM prompts WHERE name = ? ORDER BY version').all(name) as Array<{ data: string }>;
    return rows.map((r) => JSON.parse(r.data) as StoredPrompt);
  }

  names(): string[] {
    return (this.db.prepare('SELECT name FROM prompts GROUP BY name ORDER BY min(seq)').all() as Array<{ name: string }>).map(
      (r) => r.name,
    );
  }

  save(prompt: StoredPrompt): void {
    this.db
      .prepare('INSERT INTO prompts (name, version, data) VALUES (?, ?, ?) ON CONFLICT (name, version) DO UPDATE SET data = excluded.data')
      .run(prompt.name, prompt.version, JSON.stringify(prompt));
  }

  clear(): void {
    this.db.exec('DELETE FROM prompts');
  }
}
