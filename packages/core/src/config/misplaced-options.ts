/**
 * Options given in the wrong place: `obsMiddleware({ baseUrl })` reads as if it configured the
 * connection, but an adapter's top level only takes request options; connection and export
 * options go under `obs`. One warning per option name, naming the right place.
 */
import { logger } from '../util/logger.js';

/** Options of `initObs` / `ObsSpanProcessor` that adapters take under `obs`. */
const INIT_OPTIONS = [
  'publicKey',
  'secretKey',
  'baseUrl',
  'compression',
  'additionalHeaders',
  'exportMode',
  'flushAt',
  'flushInterval',
  'timeout',
  'mask',
  'shouldExportSpan',
  'environment',
  'release',
  'exporter',
  'serviceName',
  'flushOnExit',
  'debug',
] as const;

/**
 * Warns once per option when `options` (an adapter's) has an `initObs` option at its top level.
 * `adapter` names the call, e.g. `obsMiddleware` or `ObsModule.forRoot`; `rightPlace` says where
 * such options go (default: under `obs` in the same call).
 */
export function warnMisplacedOptions(adapter: string, options: unknown, rightPlace?: (key: string) => string): void {
  if (typeof options !== 'object' || options === null) return;
  for (const key of INIT_OPTIONS) {
    if (!Object.hasOwn(options, key)) continue;
    logger.warnOnce(
      `misplaced-${adapter}-${key}`,
      `${adapter}({ ${key} }) is ignored: \`${key}\` is an initObs option; pass it as ${rightPlace ? rightPlace(key) : `${adapter}({ obs: { ${key} } })`} (or set the OBS_* environment variable)`,
    );
  }
}
