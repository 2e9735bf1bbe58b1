/**
 * What a server keeps: traces younger than `days` (when set), and a data file under `maxSizeMb`
 * (by default 1 GiB, so a server left running for weeks beside a busy app never fills a laptop's
 * disk; 0 for no limit).
 */
import type { RetentionOptions } from '../types.js';

/** The data file's size limit when none is given, in MB (MiB). */
export const DEFAULT_MAX_SIZE_MB = 1024;

/** The retention in force: a cut-off age and a size in bytes, each optional. */
export interface RetentionPolicy {
  maxAgeMs?: number;
  maxBytes?: number;
}

/**
 * The policy of these options (the size limit applies to a data directory only).
 *
 * @throws RangeError for a negative or non-finite value, or 0 days
 */
export function retentionPolicy(options: RetentionOptions | undefined, hasDataFile: boolean): RetentionPolicy {
  const { days, maxSizeMb = DEFAULT_MAX_SIZE_MB } = options ?? {};
  if (days !== undefined && !(days > 0 && Number.isFinite(days)))
    throw new RangeError(`retention.days must be a positive number, got ${days}`);
  if (!(maxSizeMb >= 0 && Number.isFinite(maxSizeMb))) throw new RangeError(`retention.maxSizeMb must be 0 or more, got ${maxSizeMb}`);
  const policy: RetentionPolicy = {};
  if (days !== undefined) policy.maxAgeMs = days * 86_400_000;
  if (hasDataFile && maxSizeMb > 0) policy.maxBytes = maxSizeMb * 1024 * 1024;
  return policy;
}
