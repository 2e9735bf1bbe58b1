/** The prompt cache: TTL entries, stale-while-revalidate with one refresh per key, and one request for concurrent misses. */

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/** Entries kept at most; the oldest goes first (a prompt set is small, this only bounds a leak). */
const MAX_ENTRIES = 1000;

/** Outcome of a lookup. */
export type CacheLookup<T> = { state: 'fresh'; value: T } | { state: 'stale'; value: T } | { state: 'miss' };

/** Values by key, each fresh for its TTL; in-flight loads shared per key. */
export class PromptCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly loading = new Map<string, Promise<T>>();

  constructor(private readonly now: () => number = Date.now) {}

  lookup(key: string): CacheLookup<T> {
    const entry = this.entries.get(key);
    if (!entry) return { state: 'miss' };
    return entry.expiresAt > this.now() ? { state: 'fresh', value: entry.value } : { state: 'stale', value: entry.value };
  }

  set(key: string, value: T, ttlMs: number): void {
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
  }

  /**
   * The one load in flight for `key`, or a new one from `load`. Concurrent callers share it, so a
   * burst of misses (or a stale key read many times) sends one request.
   */
  load(key: string, load: () => Promise<T>): Promise<T> {
    const pending = this.loading.get(key);
    if (pending) return pending;
    const started = load().finally(() => {
      if (this.loading.get(key) === started) this.loading.delete(key);
    });
    this.loading.set(key, started);
    return started;
  }

  /** Forgets every entry whose key `matches` (and detaches its in-flight load). */
  invalidate(matches: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (matches(key)) this.entries.delete(key);
    for (const key of [...this.loading.keys()]) if (matches(key)) this.loading.delete(key);
  }
}
