/**
 * Every request the server received, in order, for tests to read: all of them, and the score
 * posts on their own.
 */
import type { RecordedRequest } from '../types.js';

/** The recorded requests (arrays emptied in place by `clear`, so holders see it). */
export class RequestRecorder {
  readonly requests: RecordedRequest[] = [];
  readonly scoreRequests: RecordedRequest[] = [];

  constructor(private readonly scoresPath: string) {}

  /** Records a request; one whose body could not be read is no score post yet. */
  add(record: RecordedRequest, bodyRead: boolean): void {
    this.requests.push(record);
    if (bodyRead && record.method === 'POST' && record.path === this.scoresPath) this.scoreRequests.push(record);
  }

  clear(): void {
    this.requests.length = 0;
    this.scoreRequests.length = 0;
  }

  /** `Received 3 request(s) [POST /x -> 200 x2, ...]`: the requests by route and answer. */
  describe(): string {
    const counts = new Map<string, number>();
    for (const r of this.requests) {
      const key = `${r.method} ${r.path} -> ${r.status || 'pending/reset'}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const requests = [...counts].map(([k, n]) => (n > 1 ? `${k} x${n}` : k)).join(', ');
    return `Received ${this.requests.length} request(s)${requests ? ` [${requests}]` : ''}`;
  }
}
