/**
 * Accepted scores kept in memory, in arrival order, in the array `ObsServer.scores` exposes.
 */
import type { ReceivedScore } from '../../types.js';
import type { ScoreFilter, ScoreStore } from '../types.js';

/** In-memory store of scores. */
export class MemoryScoreStore implements ScoreStore {
  private readonly list: ReceivedScore[] = [];

  add(scores: readonly ReceivedScore[]): void {
    this.list.push(...scores);
  }

  all(): ReceivedScore[] {
    return this.list;
  }

  find(filter: ScoreFilter): ReceivedScore[] {
    const conditions = Object.entries(filter).filter(([, values]) => values !== undefined) as Array<[string, readonly string[]]>;
    return this.list.filter((score) => conditions.every(([key, values]) => values.includes(String(score[key]))));
  }

  delete(id: string): void {
    this.keep((s) => s['id'] !== id);
  }

  deleteForTraces(traceIds: readonly string[]): void {
    const gone = new Set(traceIds);
    this.keep((s) => !gone.has(String(s['traceId']).toLowerCase()));
  }

  clear(): void {
    this.list.length = 0;
  }

  /** Filters the live array in place: holders of `all()` see the change. */
  private keep(predicate: (score: ReceivedScore) => boolean): void {
    const kept = this.list.filter(predicate);
    this.list.splice(0, this.list.length, ...kept);
  }
}
