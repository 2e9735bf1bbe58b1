/**
 * The viewer's prompt pages: every prompt with its latest version and labels, and one prompt's
 * versions with the generations that used it (from the spans' `obs.observation.prompt.*`).
 */
import type { ObsStores, StoredPrompt } from '../stores/types.js';

/** A prompt in the list. */
export interface PromptListEntry {
  name: string;
  type: StoredPrompt['type'];
  versions: number;
  latest: number;
  /** Each label and the version it is on. */
  labels: Record<string, number>;
  tags: string[];
  updatedAt: string;
}

/** A generation that used a prompt. */
export interface PromptUse {
  traceId: string;
  observationId: string;
  name: string;
  version: number | null;
  model: string | null;
  start: string;
}

/** Every prompt, in order of creation. */
export function promptList(stores: ObsStores): { data: PromptListEntry[] } {
  const data = stores.prompts.names().flatMap((name) => {
    const versions = stores.prompts.versions(name);
    const latest = versions[versions.length - 1];
    if (!latest) return [];
    return [
      {
        name,
        type: latest.type,
        versions: versions.length,
        latest: latest.version,
        labels: Object.fromEntries(versions.flatMap((v) => v.labels.map((l) => [l, v.version] as const))),
        tags: [...new Set(versions.flatMap((v) => v.tags))],
        updatedAt: versions.map((v) => v.createdAt).sort()[versions.length - 1]!,
      },
    ];
  });
  return { data };
}

/** One prompt: its versions (oldest first) and the generations that used it, newest first (at most 200). */
export function promptView(
  stores: ObsStores,
  name: string,
): { name: string; versions: StoredPrompt[]; uses: PromptUse[]; totalUses: number } {
  const spans = stores.spans.spansByPrompt(name);
  const uses = spans
    .map((s) => {
      const version = s.attributes['obs.observation.prompt.version'];
      const model = s.attributes['obs.observation.model.name'];
      return {
        traceId: s.traceId,
        observationId: s.spanId,
        name: s.name,
        version: version === undefined || version === null ? null : Number(version),
        model: typeof model === 'string' ? model : null,
        start: s.startTime.toISOString(),
      };
    })
    .reverse();
  return { name, versions: stores.prompts.versions(name), uses: uses.slice(0, 200), totalUses: uses.length };
}
