/**
 * `observeOpenAIAgents()`: adds obs's trace processor to the Agents SDK's processors with
 * `addTraceProcessor`, beside OpenAI's own trace export and any processor the app added; the
 * SDK then reports every run to it. Once per process, unless `setTraceProcessors` replaced it.
 */
import { addTraceProcessor, getGlobalTraceProvider, NoopTrace } from '@openai/agents';
import { logger } from '@obs/core/kit';
import { ObsTraceProcessor, wasShutDown } from './processor.js';

/** One processor per process, whichever copy of this package added it. */
const ADDED = Symbol.for('@obs/openai-agents.processor');

/**
 * Records every OpenAI Agents SDK run into obs: agents, model calls, tools, handoffs and
 * guardrails, nested under the observation active where the run started. obs starts
 * (`initObs()`) at the first run if the app has not started it. Returns the processor; a second
 * call returns the same one (a new one if `setTraceProcessors` has replaced it since).
 *
 * @example
 * ```ts
 * observeOpenAIAgents();
 * const result = await run(agent, 'What is the weather in Paris?');
 * ```
 */
export function observeOpenAIAgents(): ObsTraceProcessor {
  const holder = globalThis as { [ADDED]?: ObsTraceProcessor };
  const existing = holder[ADDED];
  // One the SDK shut down was replaced (`setTraceProcessors`) or the process is ending: add anew.
  if (existing && !wasShutDown(existing)) return existing;
  const processor = new ObsTraceProcessor();
  processor.guard.run(
    () => {
      addTraceProcessor(processor);
      holder[ADDED] = processor;
      warnIfTracingDisabled();
    },
    undefined,
    'agent runs are not observed',
  );
  return processor;
}

/**
 * The SDK turns its tracing off under NODE_ENV=test and OPENAI_AGENTS_DISABLE_TRACING (read when
 * its trace provider is made): then no processor hears of a run. Say so once instead of silence.
 */
function warnIfTracingDisabled(): void {
  const probe = getGlobalTraceProvider().createTrace({});
  if (!(probe instanceof NoopTrace) && probe.traceId !== 'no-op') return;
  logger.warn(
    'observeOpenAIAgents: the OpenAI Agents SDK has tracing turned off (NODE_ENV=test or OPENAI_AGENTS_DISABLE_TRACING), so agent runs are not observed; call setTracingDisabled(false) from @openai/agents to turn it on',
  );
}
