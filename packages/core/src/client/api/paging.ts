/** Async iteration over cursor-paged answers (`meta.cursor`), so callers never stop at the first page. */
import type { CursorPage } from './types.js';

/** Reads one page; `cursor` is `undefined` for the first. */
export type CursorPageFetcher<T> = (cursor: string | undefined) => Promise<CursorPage<T>>;

/**
 * Every page of a cursor-paged endpoint, in order, until `meta.cursor` is empty. A server that
 * hands back a cursor it already gave would loop forever: that rejects with an error instead.
 *
 * @example
 * ```ts
 * for await (const page of cursorPages((cursor) => client.api.experiments.listItems({ experimentName, cursor }))) {
 *   console.log(page.data.length);
 * }
 * ```
 */
export async function* cursorPages<T>(fetchPage: CursorPageFetcher<T>): AsyncGenerator<CursorPage<T>, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield { data: Array.isArray(page?.data) ? page.data : [], meta: page?.meta ?? {} };
    const next = page?.meta?.cursor;
    if (typeof next !== 'string' || next === '') return;
    if (seen.has(next)) throw new Error(`cursor paging: the server returned cursor ${JSON.stringify(next)} twice; stopped to avoid a loop`);
    seen.add(next);
    cursor = next;
  }
}

/** Every item of every page of a cursor-paged endpoint (see {@link cursorPages}). */
export async function* cursorItems<T>(fetchPage: CursorPageFetcher<T>): AsyncGenerator<T, void, undefined> {
  for await (const page of cursorPages(fetchPage)) yield* page.data;
}
