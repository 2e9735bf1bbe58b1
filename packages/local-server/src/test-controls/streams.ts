/**
 * What a test of a wrapped model stream needs, for each way the stream can end (read to the end,
 * left early, aborted, cut by an error): `readStream` reads it as an app does and hands back what
 * it read and what it threw, instead of a `try`/`for await` in every test; `obsEnding` reads how
 * the observation ended (level, status message, the output and usage it kept, where its first
 * chunk fell) as one value to compare, so a test states each ending once.
 */
import type { AttrValue, DecodedSpan } from '../types.js';
import { obsAttr, obsJson } from './traces.js';

/** Options of {@link readStream}. */
export interface ReadStreamOptions<T> {
  /** Called with each item as it is read (to abort the stream's controller mid-way, say). */
  each?: (item: T, index: number) => void;
  /** Leave the stream (a `break` out of the `for await`, which closes it) after the first item this is true of. */
  leaveAfter?: (item: T, index: number) => boolean;
}

/** What {@link readStream} read: every item, in order, and what the stream threw (`undefined` when it ended or was left). */
export interface StreamRead<T> {
  items: T[];
  error: unknown;
}

/**
 * Reads `stream` with `for await`, as an app does: to its end, or until `leaveAfter` says to leave;
 * a throw of the stream is returned as `error`, not rethrown.
 *
 * @example
 * ```ts
 * const { items, error } = await readStream(await client.chat.create({ stream: true }));
 * ```
 */
export async function readStream<T>(stream: AsyncIterable<T>, options: ReadStreamOptions<T> = {}): Promise<StreamRead<T>> {
  const items: T[] = [];
  try {
    for await (const item of stream) {
      items.push(item);
      options.each?.(item, items.length - 1);
      if (options.leaveAfter?.(item, items.length - 1)) break;
    }
  } catch (error) {
    return { items, error };
  }
  return { items, error: undefined };
}

/** How an observation ended, as {@link obsEnding} reads it. */
export interface ObsEnding {
  /** `level`: unset for a call that ended well, `WARNING` for one the caller left or aborted, `ERROR` for a failed one. */
  level: AttrValue | undefined;
  /** `status_message`: why it ended so (an error's message, "stopped reading", ...). */
  statusMessage: AttrValue | undefined;
  /** `output`, parsed: all of the answer, or what had arrived when it ended. */
  output: unknown;
  /** `usage_details`, parsed: what the provider had reported when it ended. */
  usage: unknown;
  /**
   * Where `completion_start_time` (the first chunk of a stream) fell, to the millisecond: `within`
   * the span (after its start, before its end), `at the end` (a stream whose chunks all came in
   * its last millisecond), `not after the start`, `after the end`; `undefined` when unset.
   */
  completionStart: 'within' | 'at the end' | 'not after the start' | 'after the end' | undefined;
}

/**
 * How the observation of `span` ended: its level, status message, output, usage, and where its
 * first chunk fell, to compare at once: `expect(obsEnding(span)).toEqual({ level: 'ERROR', ... })`.
 */
export function obsEnding(span: DecodedSpan): ObsEnding {
  const first = obsAttr(span, 'completion_start_time');
  return {
    level: obsAttr(span, 'level'),
    statusMessage: obsAttr(span, 'status_message'),
    output: obsJson(span, 'output'),
    usage: obsJson(span, 'usage_details'),
    completionStart: first === undefined ? undefined : whereIn(span, new Date(String(first)).getTime()),
  };
}

function whereIn(span: DecodedSpan, time: number): ObsEnding['completionStart'] {
  const end = span.endTime.getTime();
  if (!(time > span.startTime.getTime())) return 'not after the start';
  return time < end ? 'within' : time === end ? 'at the end' : 'after the end';
}
