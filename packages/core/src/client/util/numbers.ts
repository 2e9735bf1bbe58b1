/** `n` when it is a finite number above 0, else `undefined` (so `??` falls back to a default). */
export function positive(n: unknown): number | undefined {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** `n` when it is an integer of at least 0, else `undefined`. */
export function nonNegativeInteger(n: unknown): number | undefined {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}
