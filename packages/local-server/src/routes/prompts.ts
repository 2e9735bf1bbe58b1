/**
 * The prompt routes: numbered versions per name, labels (`latest` follows the newest version; a
 * label lives on one version at a time), create, read by version or label, and `PATCH` of a
 * version's labels.
 */
import { answer, objectBody, refuse, type Answer } from '../http/answer.js';
import type { PromptStore, StoredPrompt } from '../stores/types.js';
import type { ApiRoute } from './api-route.js';

const PROMPTS = '/api/public/v2/prompts';

/** Create, read and relabel prompts. */
export function promptRoutes(store: PromptStore): ApiRoute[] {
  return [
    { methods: ['POST'], path: PROMPTS, handle: ({ json }) => create(store, json) },
    { methods: ['GET'], path: `${PROMPTS}/:name`, handle: ({ query }, { name }) => get(store, name!, query) },
    {
      methods: ['PATCH'],
      path: `${PROMPTS}/:name/versions/:version`,
      handle: ({ json }, { name, version }) => relabel(store, name!, Number(version), json),
    },
  ];
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((s) => typeof s === 'string') ? [...new Set(v as string[])] : undefined;
}

function create(store: PromptStore, json: unknown): Answer {
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
  const versions = store.versions(name);
  const created: StoredPrompt = {
    name,
    version: versions.length + 1,
    type,
    prompt,
    config: body!['config'] ?? {},
    labels: [],
    tags,
    commitMessage: typeof body!['commitMessage'] === 'string' ? (body!['commitMessage'] as string) : null,
    createdAt: new Date().toISOString(),
  };
  return answer(200, moveLabels(store, [...versions, created], created.version, [...labels, 'latest']));
}

function get(store: PromptStore, name: string, query: Record<string, string>): Answer {
  const versions = store.versions(name);
  let found: StoredPrompt | undefined;
  if (query['version'] !== undefined && query['version'] !== '') {
    found = versions.find((p) => String(p.version) === query['version']);
  } else {
    const label = query['label'] || 'production';
    found = versions.find((p) => p.labels.includes(label));
  }
  if (!found) {
    const which = query['version'] ? `version ${query['version']}` : `label ${query['label'] || 'production'}`;
    return refuse(404, `prompt ${JSON.stringify(name)} with ${which} not found`);
  }
  return answer(200, found);
}

function relabel(store: PromptStore, name: string, version: number, json: unknown): Answer {
  const versions = store.versions(name);
  if (!versions.some((p) => p.version === version)) return refuse(404, `prompt ${JSON.stringify(name)} version ${version} not found`);
  const labels = stringList(objectBody(json)?.['newLabels']);
  if (!labels) return refuse(400, 'newLabels must be an array of strings');
  if (labels.includes('latest')) return refuse(400, 'the latest label is managed by the server');
  return answer(200, moveLabels(store, versions, version, labels));
}

/** Puts `labels` on one version and takes them off the others (a label lives on one version); saves what changed. */
function moveLabels(store: PromptStore, versions: StoredPrompt[], target: number, labels: string[]): StoredPrompt {
  let moved: StoredPrompt | undefined;
  for (const p of versions) {
    const next = p.version === target ? [...new Set([...p.labels, ...labels])] : p.labels.filter((l) => !labels.includes(l));
    const changed = next.length !== p.labels.length || next.some((l, i) => l !== p.labels[i]) || p.version === target;
    const updated = changed ? { ...p, labels: next } : p;
    if (changed) store.save(updated);
    if (p.version === target) moved = updated;
  }
  return moved!;
}
