/**
 * How many copies of `@obs/core` and of `@opentelemetry/api` each server bundle of a `next build`
 * holds, Turbopack's or webpack's, read from the source maps beside its server chunks (Turbopack
 * writes them; webpack with `experimental.serverSourceMaps`): a Node.js entry (a route, a page,
 * `instrumentation.js`) is its file and the chunks it loads (Turbopack's `R.c("...")`, webpack's
 * `X(0, [ids], ...)` from `chunks/<id>.js`), an Edge function the files its
 * `middleware-manifest.json` entry lists. A copy is a module of the
 * package in one of those chunks (`packages/core/dist/chunks/obs*.js` or `@obs/core/dist/...`; the
 * API's `global-utils`); Next's own vendored API (`next/dist/compiled/@opentelemetry/api`, its
 * fallback when the app has none) is Next's and not counted.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BundleCopies {
  core: number;
  api: number;
}

const CORE = /(?:packages\/core|@obs\/core)\/dist\/chunks\/obs(?:-edge)?\.js(?:\?\w+)?$/;
const API = /node_modules\/@opentelemetry\/api\/.*global-utils\.(?:ts|js)(?:\?\w+)?$/;

function sourcesOf(file: string): string[] {
  const map = `${file}.map`;
  if (!existsSync(map)) return [];
  const json = JSON.parse(readFileSync(map, 'utf8')) as { sources?: string[]; sections?: { map: { sources?: string[] } }[] };
  const sources = json.sections ? json.sections.flatMap((s) => s.map.sources ?? []) : (json.sources ?? []);
  return sources.map((s) => decodeURIComponent(s));
}

function count(files: string[]): BundleCopies {
  const sources = files.flatMap(sourcesOf);
  return { core: sources.filter((s) => CORE.test(s)).length, api: sources.filter((s) => API.test(s)).length };
}

/** Copies per server bundle of the Turbopack build in `distDir` (`.next`), by entry. */
export function nextBundleCopies(distDir: string): Record<string, BundleCopies> {
  const out: Record<string, BundleCopies> = {};
  const server = join(distDir, 'server');
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
  const entries = [join(server, 'instrumentation.js'), ...walk(join(server, 'app')).filter((f) => /\/(route|page)\.js$/.test(f))].filter(
    existsSync,
  );
  for (const entry of entries) {
    const text = readFileSync(entry, 'utf8');
    const turbopack = [...text.matchAll(/R\.c\("([^"]+)"\)/g)].map((m) => join(distDir, m[1]!));
    const webpack = [...text.matchAll(/\.X\(0,\[([\d,]*)\]/g)]
      .flatMap((m) => m[1]!.split(',').filter(Boolean))
      .map((id) => join(server, 'chunks', `${id}.js`));
    const chunks = [...turbopack, ...webpack];
    out[entry.slice(server.length)] = count([entry, ...chunks]);
  }
  const manifest = JSON.parse(readFileSync(join(server, 'middleware-manifest.json'), 'utf8')) as {
    functions?: Record<string, { files: string[] }>;
    middleware?: Record<string, { files: string[] }>;
  };
  for (const [name, fn] of Object.entries({ ...manifest.functions, ...manifest.middleware }))
    out[`edge ${name}`] = count(fn.files.map((f) => join(distDir, f)));
  return out;
}
