/**
 * A cassette: the recorded calls of one test file, in `__obs_cache__/<file name>.json` beside it.
 * One JSON file, its entries sorted by key and pretty-printed, so a re-recording reads as a diff in
 * review. Each entry keeps the request (method, URL, canonical body) and its answers in order: the
 * same call made twice in a run answers what it answered the first and the second time (the last
 * answer again beyond that).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { KeyedRequest, RecordedRequest } from './request-key.js';

/** Folder of the cassettes, beside the test files. */
export const CACHE_DIR = '__obs_cache__';

/** An answer as the cassette keeps it. */
export interface RecordedResponse {
  status: number;
  statusText?: string;
  /** Lower-case names; no cookies, credentials, or transport headers (length, encoding). */
  headers: Record<string, string>;
  /** The body: `json` (parsed), `text` (UTF-8, server-sent events included), or `base64`. */
  json?: unknown;
  text?: string;
  base64?: string;
}

interface Entry {
  request: RecordedRequest;
  responses: RecordedResponse[];
}

interface CassetteFile {
  version: 1;
  entries: Record<string, Entry>;
}

/** The cassette file of a test file. */
export function cassettePath(testFile: string): string {
  return join(dirname(testFile), CACHE_DIR, `${basename(testFile)}.json`);
}

/** The recorded calls of one test file, read once, written when something new was recorded. */
export class Cassette {
  private readonly entries: Map<string, Entry>;
  /** How many answers of each key this process has used (replay) or written (record). */
  private readonly used = new Map<string, number>();
  private dirty = false;

  constructor(readonly file: string) {
    this.entries = new Map(Object.entries(read(file)?.entries ?? {}));
  }

  /** The next recorded answer of this call, or `undefined` when it was never recorded. */
  take(request: KeyedRequest): RecordedResponse | undefined {
    const entry = this.entries.get(request.key);
    if (!entry || entry.responses.length === 0) return undefined;
    const n = this.used.get(request.key) ?? 0;
    this.used.set(request.key, n + 1);
    return entry.responses[Math.min(n, entry.responses.length - 1)];
  }

  /** Whether the call was recorded (without using an answer). */
  has(request: KeyedRequest): boolean {
    return (this.entries.get(request.key)?.responses.length ?? 0) > 0;
  }

  /**
   * Keeps an answer. The first answer a process records for a call replaces what an earlier
   * recording held for it; later ones in the same process follow it in order.
   */
  put(request: KeyedRequest, response: RecordedResponse): void {
    const n = this.used.get(request.key) ?? 0;
    const { key, ...stored } = request;
    const entry = n === 0 ? { request: stored, responses: [] as RecordedResponse[] } : this.entries.get(key)!;
    entry.responses.push(response);
    this.entries.set(key, entry);
    this.used.set(key, n + 1);
    this.dirty = true;
  }

  /** Writes the file when something was recorded (atomically: a reader never sees half a file). */
  save(): void {
    if (!this.dirty) return;
    const sorted = Object.fromEntries([...this.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const body: CassetteFile = { version: 1, entries: sorted };
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(body, null, 2)}\n`);
    renameSync(tmp, this.file);
    this.dirty = false;
  }
}

function read(file: string): CassetteFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const parsed = JSON.parse(text) as CassetteFile;
  if (parsed?.version !== 1 || typeof parsed.entries !== 'object') {
    throw new Error(`${file} is not an obs eval cassette (version 1): delete it and record again`);
  }
  return parsed;
}
