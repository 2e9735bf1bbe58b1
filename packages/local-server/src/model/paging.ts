/**
 * Paging of the local server's lists: page numbers (datasets, dataset items) and offset cursors
 * (experiments), both with a page-size cap like a real server's.
 */

/** Largest page the server hands out, whatever `limit` asks for. */
export const MAX_PAGE_SIZE = 100;

function int(v: string | undefined, fallback: number): number {
  const n = v === undefined ? NaN : Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : fallback;
}

/** The page size asked for, between 1 and `max` ({@link MAX_PAGE_SIZE} unless a list allows more); default 50. */
export function pageSize(limit: string | undefined, max = MAX_PAGE_SIZE): number {
  return Math.min(Math.max(int(limit, 50), 1), max);
}

/** `{ data, meta: { page, limit, totalItems, totalPages } }` of a page-numbered list. */
export function numberedPage<T>(all: T[], query: Record<string, string>): { data: T[]; meta: Record<string, number> } {
  const limit = pageSize(query['limit']);
  const page = Math.max(int(query['page'], 1), 1);
  return {
    data: all.slice((page - 1) * limit, page * limit),
    meta: { page, limit, totalItems: all.length, totalPages: Math.ceil(all.length / limit) },
  };
}

/** `{ data, meta: { cursor } }` of a cursor-paged list; the cursor is an offset, `null` on the last page. */
export function cursorPage<T>(
  all: T[],
  query: Record<string, string>,
  max = MAX_PAGE_SIZE,
): { data: T[]; meta: { cursor: string | null } } {
  const limit = pageSize(query['limit'], max);
  const offset = Math.max(int(query['cursor'], 0), 0);
  const next = offset + limit;
  return { data: all.slice(offset, next), meta: { cursor: next < all.length ? String(next) : null } };
}
