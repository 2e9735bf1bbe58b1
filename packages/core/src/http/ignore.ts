import { DEFAULT_IGNORED_PATHS, STATIC_ASSET, type ObsHttpOptions } from './options.js';

/** Decides, per request, whether it makes no observation. */
export type IgnoreMatcher<Req> = (method: string, path: string, req: Req) => boolean;

/** Compiles `ignore` (or the defaults) into one matcher. */
export function compileIgnore<Req>(ignore: ObsHttpOptions<Req>['ignore']): IgnoreMatcher<Req> {
  if (typeof ignore === 'function') {
    return (method, _path, req) => method === 'OPTIONS' || safe(() => ignore(req));
  }
  const patterns = ignore ?? [...DEFAULT_IGNORED_PATHS, STATIC_ASSET];
  return (method, path) => {
    if (method === 'OPTIONS') return true;
    for (const p of patterns) {
      if (typeof p === 'string' ? p === path : p.test(path)) return true;
    }
    return false;
  };
}

function safe(fn: () => boolean): boolean {
  try {
    return fn() === true;
  } catch {
    return false;
  }
}
