/**
 * Merges header sets left to right; a later header replaces an earlier one whatever the case
 * of its name, so exactly one of each is sent.
 */
export function mergeHeaders(...sets: (Record<string, string> | undefined)[]): Record<string, string> {
  const out: Record<string, string> = {};
  const names = new Map<string, string>();
  for (const set of sets) {
    if (!set) continue;
    for (const [name, value] of Object.entries(set)) {
      if (value === undefined || value === null) continue;
      const lower = name.toLowerCase();
      const previous = names.get(lower);
      if (previous !== undefined) delete out[previous];
      names.set(lower, name);
      out[name] = String(value);
    }
  }
  return out;
}
