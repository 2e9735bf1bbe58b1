/**
 * The store seam: everything the server keeps (spans, the trace list the viewer reads, scores,
 * datasets, prompts, media) behind one interface each, so that where it is kept can change without
 * touching a route.
 *
 * The routes only call these interfaces; `openStores` (./open.ts) picks the implementation once
 * per server: memory (./memory/, the tests' default) or SQLite in a data directory (./sqlite/).
 * The methods are synchronous on purpose: node:sqlite's `DatabaseSync` answers synchronously,
 * and the test API the packages use (`server.spans()`, `server.scores`) is synchronous too.
 *
 * Stores hold no HTTP or validation logic: routes validate, compute the record to keep
 * (numbering, label moves, merges) and hand it over; stores keep it and answer queries.
 */
import type { DecodedSpan, HeldMedia, ReceivedScore } from '../types.js';
import type { TraceSummary } from '../model/trace-summary.js';

/**
 * A store could not do what it was asked because of where it keeps its data: a full disk (507),
 * an I/O error or a lock held too long (503). The message names the cause and the file.
 */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
  constructor(
    message: string,
    /** The HTTP status a request that met it is answered. */
    readonly status: 503 | 507,
  ) {
    super(message);
  }
}

/** Received spans, in arrival order. */
export interface SpanStore {
  /** Keeps spans (in the order given). */
  add(spans: readonly DecodedSpan[]): void;
  /** Number of spans kept. */
  readonly size: number;
  /** All spans, in arrival order. */
  spans(): DecodedSpan[];
  /** The spans of one trace (id in any case), in arrival order. */
  spansByTrace(traceId: string): DecodedSpan[];
  /** Spans whose name equals the string, or matches the RegExp. */
  spansByName(name: string | RegExp): DecodedSpan[];
  /** Distinct trace ids, in first-seen order. */
  traceIds(): string[];
  /** Spans that used the prompt of this name (`obs.observation.prompt.name`), in arrival order. */
  spansByPrompt(name: string): DecodedSpan[];
  /** Spans that carry `obs.experiment.id` (experiment items), in arrival order. */
  experimentSpans(): DecodedSpan[];
  /** Forgets the spans of these traces (lower-case ids); returns how many spans went. */
  deleteTraces(traceIds: readonly string[]): number;
  clear(): void;
}

/** Which traces a list asks for (every given condition must hold). */
export interface TraceFilter {
  /** Case-insensitive substring of the trace name. */
  name?: string;
  userId?: string;
  sessionId?: string;
  tag?: string;
  errorsOnly?: boolean;
  experimentsOnly?: boolean;
  /**
   * Full-text search over the names, inputs, outputs and metadata of the trace's observations:
   * every word of it must begin a word of the trace's text (case and accents ignored).
   */
  search?: string;
}

/**
 * The trace summaries (a read model of the spans): the memory store folds them from its span
 * store when read; the SQLite store keeps them in a table written with the spans.
 */
export interface TraceStore {
  /** Matching summaries, newest first, at most `limit`; `total` counts every match. */
  list(filter: TraceFilter, limit?: number): { data: TraceSummary[]; total: number };
  get(traceId: string): TraceSummary | undefined;
  /** The ids of the traces that started first (before `before`, epoch ms, when given), oldest first, at most `limit`. */
  oldest(limit: number, before?: number): string[];
}

/** Fields a score query can match on; each lists the accepted values. */
export type ScoreFilter = Partial<Record<'id' | 'traceId' | 'observationId' | 'sessionId' | 'datasetRunId' | 'name', readonly string[]>>;

/** Accepted scores, in arrival order. */
export interface ScoreStore {
  add(scores: readonly ReceivedScore[]): void;
  /** Every score; the memory store answers its live array (what `ObsServer.scores` is). */
  all(): ReceivedScore[];
  /** Scores matching every field of the filter (compared as strings). */
  find(filter: ScoreFilter): ReceivedScore[];
  delete(id: string): void;
  /** Forgets the scores of these traces (lower-case ids). */
  deleteForTraces(traceIds: readonly string[]): void;
  clear(): void;
}

/** A dataset as the server answers it. */
export interface StoredDataset {
  id: string;
  name: string;
  description: string | null;
  metadata: unknown;
  createdAt: string;
  updatedAt: string;
}

/** A dataset item as the server answers it. */
export interface StoredDatasetItem {
  id: string;
  datasetId: string;
  datasetName: string;
  input: unknown;
  expectedOutput: unknown;
  metadata: unknown;
  status: string;
  /** The trace the item was made from (a production answer turned into a test case), or `null`. */
  sourceTraceId?: string | null;
  /** The observation the item was made from, or `null`. */
  sourceObservationId?: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Datasets by name, and every revision of every item (so a list can answer "as it was then"). */
export interface DatasetStore {
  dataset(name: string): StoredDataset | undefined;
  /** Every dataset, in order of creation. */
  datasets(): StoredDataset[];
  /** Creates or replaces the dataset of that name. */
  saveDataset(dataset: StoredDataset): void;
  /** Keeps a revision of an item made at `at` (epoch ms); `null` deletes the item from then on. */
  saveItemRevision(id: string, at: number, item: StoredDatasetItem | null): void;
  /** The item as it was at `at`, or `undefined` when it did not exist then. */
  itemAt(id: string, at: number): StoredDatasetItem | undefined;
  /** Every item as it was at `at`, in order of first creation, optionally of one dataset. */
  itemsAt(at: number, datasetName?: string): StoredDatasetItem[];
  /** The dataset's versions: each time (epoch ms) one of its items changed, oldest first. */
  versions(datasetName: string): number[];
  clear(): void;
}

/** A prompt version as the server answers it. */
export interface StoredPrompt {
  name: string;
  version: number;
  type: 'text' | 'chat';
  prompt: unknown;
  config: unknown;
  labels: string[];
  tags: string[];
  commitMessage: string | null;
  createdAt: string;
}

/** Every version of every prompt. */
export interface PromptStore {
  /** The versions of a prompt, oldest first. */
  versions(name: string): StoredPrompt[];
  /** Every prompt's name, in order of creation. */
  names(): string[];
  /** Creates or replaces the version `prompt.version` of `prompt.name`. */
  save(prompt: StoredPrompt): void;
  clear(): void;
}

/** Media an SDK asked to upload (wire contract 5), as the server keeps it (its links apart). */
export interface StoredMedia extends Omit<HeldMedia, 'links'> {
  createdAt: string;
}

/** A trace, observation and field that asked for a medium. */
export type MediaLink = HeldMedia['links'][number];

/**
 * Media records, found by id or by their bytes (hash and content type), their bytes, and the
 * traces that use them: kept apart from the record, so an ask costs the same for a medium a
 * thousand observations use as for a new one.
 */
export interface MediaStore {
  get(mediaId: string): StoredMedia | undefined;
  /** The media holding these bytes: the same hash and content type. */
  find(sha256Hash: string, contentType: string): StoredMedia | undefined;
  /** Creates or replaces the record with its id. */
  save(media: StoredMedia): void;
  /** Keeps a link of a medium (once: a link kept already is left as it is). */
  link(mediaId: string, link: MediaLink): void;
  /** The links of a medium, in the order they were first kept. */
  links(mediaId: string): MediaLink[];
  saveBytes(mediaId: string, bytes: Buffer): void;
  bytes(mediaId: string): Buffer | undefined;
  /** Forgets the links of these traces (lower-case ids), and the media no trace links to any more. */
  deleteForTraces(traceIds: readonly string[]): void;
  clear(): void;
}

/** The size of a data file, and giving its free pages back to the file system. */
export interface StorageFile {
  /** The file's size in bytes (its pages, free ones included). */
  fileBytes(): number;
  /** The bytes its data takes (the file without its free pages). */
  usedBytes(): number;
  /** Rewrites the file without its free pages (blocks while it runs). */
  vacuum(): void;
}

/** Everything the server keeps, opened once per server. */
export interface ObsStores {
  readonly spans: SpanStore;
  readonly traces: TraceStore;
  readonly scores: ScoreStore;
  readonly datasets: DatasetStore;
  readonly prompts: PromptStore;
  readonly media: MediaStore;
  /** The key media URLs are signed with: kept with the data, so a URL answered before a restart still works. */
  readonly urlKey: Buffer;
  /** The database file, or `undefined` in memory. */
  readonly file: string | undefined;
  /** The data file's size and its vacuum; `undefined` in memory. */
  readonly storage: StorageFile | undefined;
  /**
   * Forgets whole traces (lower-case ids): their spans and read models, their scores, their media
   * links and the media no other trace uses; returns how many spans went.
   */
  deleteTraces(traceIds: readonly string[]): number;
  /** Forgets everything (`ObsServer.reset()`). */
  clear(): void;
  /** Releases what the stores hold open (a database file); the server calls it once, on close. */
  close(): void;
}
