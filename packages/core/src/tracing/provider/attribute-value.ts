/** Which values an OpenTelemetry attribute may hold, as the SDK checks them before recording. */

const PRIMITIVE = new Set(['string', 'number', 'boolean']);

/**
 * A string, number or boolean, or an array of one of those types (empty and missing elements
 * allowed); anything else (objects, mixed arrays, functions) is not recorded.
 */
export function isAttributeValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (!Array.isArray(value)) return PRIMITIVE.has(typeof value);
  let type: string | undefined;
  for (const element of value) {
    if (element === null || element === undefined) continue;
    const t = typeof element;
    if (t === type) continue;
    if (type !== undefined || !PRIMITIVE.has(t)) return false;
    type = t;
  }
  return true;
}
