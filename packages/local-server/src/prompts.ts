/**
 * Prompts of the local server: numbered versions per name, labels (`latest` follows the newest
 * version; a label lives on one version at a time), create, read by version or label, and
 * `PATCH` of a version's labels.
 */
import { answer, decodeSegment, objectBody, refuse, type ApiAnswer } from './api-answer.js';
import type { RecordedRequest } from './types.js';

/** A prompt version as the server answers it. */
export interface StoredPrompt {
  name: string;
  version: number;
  type: 'text' | 'chat';
  prompt: unknown;
  config: unknown;
  labels: string[];
  tags: string[];
  commitMessage: string | null;
  createdAt: string;
}

const PROMPTS = '/api/public/v2/prompts';

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((s) => typeof s === 'string') ? [...new Set(v as string[])] : undefined;
}

/** Every version of every prompt. */
export class PromptStore {
  private readonly versions = new Map<string, StoredPrompt[]>();

  /** Answers the prompt routes; `undefined` for any other path. */
  route(record: RecordedRequest): ApiAnswer | undefined {
    const { method, path } = record;
    if (path === PROMPTS && method === 'POST') return this.create(record.json);
    if (!path.startsWith(`${PROMPTS}/`)) return undefined;
    const rest = path.slice(PROMPTS.length + 1).split('/');
    if (rest.length === 1 && method === 'GET') return this.get(decodeSegment(rest[0]!), record.query);
    if (rest.length === 3 && rest[1] === 'versions' && method === 'PATCH') {
      return this.relabel(decodeSegment(rest[0]!), Number(rest[2]), record.json);
    }
    return undefined;
  }

  /** Forgets every prompt. */
  clear(): void {
    this.versions.clear();
  }

  private create(json: unknown): ApiAnswer {
    const body = objectBody(json);
    const name = body?.['name'];
    if (typeof name !== 'string' || name.trim() === '') return refuse(400, 'name is required and must be a non-empty string');
    const type = body!['type'] ?? 'text';
    if (type !== 'text' && type !== 'chat') return refuse(400, 'type must be "text" or "chat"');
    const prompt = body!['prompt'];
    if (type === 'text' ? typeof prompt !== 'string' : !Array.isArray(prompt)) {
      return refuse(400, type === 'text' ? 'a text prompt needs a string prompt' : 'a chat prompt needs an array of messages');
    }
    const labels = stringList(body!['labels'] ?? []);
    const tags = stringList(body!['tags'] ?? []);
    if (!labels || !tags) return refuse(400, 'labels and tags must be arrays of strings');
    const list = this.versions.get(name) ?? [];
    const created: StoredPrompt = {
      name,
      version: list.length + 1,
      type,
      prompt,
      config: body!['config'] ?? {},
      labels: [],
      tags,
      commitMessage: typeof body!['commitMessage'] === 'string' ? (body!['commitMessage'] as string) : null,
      createdAt: new Date().toISOString(),
    };
    list.push(created);
    this.versions.set(name, list);
    this.moveLabels(list, created, [...labels, 'latest']);
    return answer(200, created);
  }

  private get(name: string, query: Record<string, string>): ApiAnswer {
    const list = this.versions.get(name) ?? [];
    let found: StoredPrompt | undefined;
    if (query['version'] !== undefined && query['version'] !== '') {
      found = list.find((p) => String(p.version) === query['version']);
    } else {
      const label = query['label'] || 'production';
      found = list.find((p) => p.labels.includes(label));
    }
    if (!found) {
      const which = query['version'] ? `version ${query['version']}` : `label ${query['label'] || 'production'}`;
      return refuse(404, `prompt ${JSON.stringify(name)} with ${which} not found`);
    }
    return answer(200, found);
  }

  private relabel(name: string, version: number, json: unknown): ApiAnswer {
    const list = this.versions.get(name) ?? [];
    const target = list.find((p) => p.version === version);
    if (!target) return refuse(404, `prompt ${JSON.stringify(name)} version ${version} not found`);
    const labels = stringList(objectBody(json)?.['newLabels']);
    if (!labels) return refuse(400, 'newLabels must be an array of strings');
    if (labels.includes('latest')) return refuse(400, 'the latest label is managed by the server');
    this.moveLabels(list, target, labels);
    return answer(200, target);
  }

  /** A label lives on one version: it moves off the others. */
  private moveLabels(list: StoredPrompt[], target: StoredPrompt, labels: string[]): void {
    for (const p of list) if (p !== target) p.labels = p.labels.filter((l) => !labels.includes(l));
    target.labels = [...new Set([...target.labels, ...labels])];
  }
}
