/**
 * The sampler `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG` configure, for obs's own provider:
 * the specification's built-in ones (`always_on`, `always_off`, `traceidratio` and their
 * `parentbased_` forms), decided as the OpenTelemetry SDK decides them. The default, as the SDK's,
 * is `parentbased_always_on`.
 */
import { logger } from '../../util/logger.js';

/** How a span is sampled: by its parent's flag when it has one (`parentBased`), else by `root`. */
export interface LightSampler {
  parentBased: boolean;
  /** Whether a span of this trace id is sampled when the parent does not decide. */
  root(traceId: string): boolean;
}

const ON = () => true;
const OFF = () => false;

const DEFAULT_SAMPLER: LightSampler = { parentBased: true, root: ON };

/** The sampler of the environment; an unknown name or ratio logs one line and falls back as the SDK does. */
export function samplerFromEnv(env: Record<string, string | undefined> | undefined = globalThis.process?.env): LightSampler {
  const name = env?.OTEL_TRACES_SAMPLER?.trim().toLowerCase();
  if (!name) return DEFAULT_SAMPLER;
  const parentBased = name.startsWith('parentbased_');
  switch (parentBased ? name.slice('parentbased_'.length) : name) {
    case 'always_on':
      return { parentBased, root: ON };
    case 'always_off':
      return { parentBased, root: OFF };
    case 'traceidratio':
      return { parentBased, root: ratioSampler(env?.OTEL_TRACES_SAMPLER_ARG) };
    default:
      logger.warn(`OTEL_TRACES_SAMPLER=${name} is not one obs's tracer provider knows; sampling parentbased_always_on`);
      return DEFAULT_SAMPLER;
  }
}

/** The SDK's `TraceIdRatioBasedSampler`: the trace id's 32-bit words XORed, below ratio x (2^32 - 1). */
function ratioSampler(arg: string | undefined): (traceId: string) => boolean {
  let ratio = arg === undefined || arg.trim() === '' ? 1 : Number(arg);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    logger.warn(`OTEL_TRACES_SAMPLER_ARG=${arg} is not a ratio between 0 and 1; sampling every trace`);
    ratio = 1;
  }
  const bound = ratio === 1 ? 2 ** 32 : Math.floor(ratio * 0xffffffff);
  return (traceId) => {
    let acc = 0;
    for (let i = 0; i < traceId.length; i += 8) acc = (acc ^ Number.parseInt(traceId.slice(i, i + 8), 16)) >>> 0;
    return acc < bound;
  };
}
