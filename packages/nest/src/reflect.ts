/**
 * Typed access to the `reflect-metadata` polyfill Nest loads, without depending on its global
 * type augmentation being in scope. Every function tolerates the polyfill being absent.
 */
type ReflectWithMetadata = typeof Reflect & {
  getMetadata?: (key: unknown, target: object) => unknown;
  getOwnMetadata?: (key: unknown, target: object) => unknown;
  getOwnMetadataKeys?: (target: object) => unknown[];
  defineMetadata?: (key: unknown, value: unknown, target: object) => void;
};

const R = Reflect as ReflectWithMetadata;

/** Metadata of `target` under `key`, own or inherited. */
export function getMetadata(key: string, target: object): unknown {
  return R.getMetadata?.(key, target);
}

/** Copies the reflect metadata defined on `from` (e.g. by `@Get()`, `@SetMetadata()`) to `to`. */
export function copyOwnMetadata(from: object, to: object): void {
  if (!R.getOwnMetadataKeys || !R.getOwnMetadata || !R.defineMetadata) return;
  for (const key of R.getOwnMetadataKeys(from)) R.defineMetadata(key, R.getOwnMetadata(key, from), to);
}
