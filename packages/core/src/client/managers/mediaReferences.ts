/** A reference string the SDK puts in place of uploaded media: `@@@obsMedia:type=…|id=…|source=…@@@`. */
export interface MediaReference {
  /** The whole reference string, as found. */
  reference: string;
  mediaId: string;
  contentType?: string;
  source?: string;
}

const REFERENCE = /@@@obsMedia:(.+?)@@@/g;

/** Parses `inner`, the inside of `reference`; `undefined` when it names no media id. */
function parseMediaReference(reference: string, inner: string): MediaReference | undefined {
  const fields = new Map<string, string>();
  for (const pair of inner.split('|')) {
    const eq = pair.indexOf('=');
    if (eq > 0) fields.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  const mediaId = fields.get('id');
  if (!mediaId) return undefined;
  return { reference, mediaId, contentType: fields.get('type'), source: fields.get('source') };
}

/** Every distinct reference in the strings of `value`, down to `maxDepth` levels. */
export function findMediaReferences(value: unknown, maxDepth: number): MediaReference[] {
  const found = new Map<string, MediaReference>();
  const visit = (v: unknown, depth: number): void => {
    if (typeof v === 'string') {
      for (const match of v.matchAll(REFERENCE)) {
        const parsed = parseMediaReference(match[0], match[1]!);
        if (parsed) found.set(parsed.reference, parsed);
      }
    } else if (depth < maxDepth && typeof v === 'object' && v !== null) {
      for (const child of Array.isArray(v) ? v : Object.values(v)) visit(child, depth + 1);
    }
  };
  visit(value, 0);
  return [...found.values()];
}

/** A copy of `value` with each reference found in `replacements` swapped for its replacement. */
export function replaceMediaReferences<T>(value: T, replacements: ReadonlyMap<string, string>, maxDepth: number): T {
  const visit = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return v.replace(REFERENCE, (ref) => replacements.get(ref) ?? ref);
    if (depth >= maxDepth || typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) return v.map((child) => visit(child, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, child]) => [k, visit(child, depth + 1)]));
  };
  return visit(value, 0) as T;
}
