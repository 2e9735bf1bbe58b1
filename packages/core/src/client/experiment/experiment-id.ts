/** Experiment ids: deterministic for a dataset run (so a rerun of the same run name is the same experiment), random for local data. */

function toUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The id of a dataset run: SHA-256 of (project, dataset, run name), shaped like the server's
 * UUIDs. The parts are JSON-encoded together so `("a/b","c")` and `("a","b/c")` differ.
 */
export async function datasetRunExperimentId(projectId: string, datasetId: string, runName: string): Promise<string> {
  const seed = JSON.stringify([projectId, datasetId, runName]);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(seed)));
  let hex = '';
  for (const b of digest.subarray(0, 16)) hex += b.toString(16).padStart(2, '0');
  return toUuid(hex);
}

/** A random experiment id (local-data runs). */
export function randomExperimentId(): string {
  return crypto.randomUUID();
}
