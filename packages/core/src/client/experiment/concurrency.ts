/** Runs work over a list with a fixed number of workers, so at most `limit` items are in flight. */

/**
 * Calls `work(item, index)` for every item with at most `limit` calls pending at once, and
 * resolves with the results in item order. `work` must not reject (the runner isolates failures).
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}
