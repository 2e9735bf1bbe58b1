/**
 * The viewer's page and its files (`viewer/` in the package, beside `dist/`), read once and
 * kept in memory.
 */
import { readFile } from 'node:fs/promises';
import { answer } from '../http/answer.js';
import type { ViewerRoute } from './viewer-route.js';

/** Where the page's files are: `viewer/` beside `dist/` in the package. */
const STATIC_DIR = new URL('../../viewer/', import.meta.url);

/** The page's modules, each served as `/viewer/<name>.js`. */
const MODULES = [
  'app',
  'dom',
  'values',
  'list',
  'trace',
  'observation',
  'session',
  'experiments',
  'prompts',
  'datasets',
  'diff',
  'dataset-from-trace',
];

const FILES: Array<[path: string, file: string, type: string]> = [
  ['/', 'index.html', 'text/html; charset=utf-8'],
  ...MODULES.map((m): [string, string, string] => [`/viewer/${m}.js`, `${m}.js`, 'text/javascript; charset=utf-8']),
  ['/viewer/app.css', 'app.css', 'text/css; charset=utf-8'],
  // The tab's icon; browsers also ask for /favicon.ico on their own.
  ['/favicon.svg', 'favicon.svg', 'image/svg+xml'],
  ['/favicon.ico', 'favicon.svg', 'image/svg+xml'],
];

/** One route per file of the page. */
export function viewerStaticRoutes(): ViewerRoute[] {
  const cache = new Map<string, Buffer>();
  return FILES.map(([path, file, type]) => ({
    methods: ['GET'],
    path,
    handle: async () => {
      let body = cache.get(file);
      if (!body) {
        body = await readFile(new URL(file, STATIC_DIR));
        cache.set(file, body);
      }
      return answer(200, body, { 'content-type': type });
    },
  }));
}
