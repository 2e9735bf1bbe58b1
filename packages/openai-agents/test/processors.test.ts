/**
 * obs's processor beside the app's: `observeOpenAIAgents()` adds to the processors the app set
 * (OpenAI's own trace export, pointed here at the stand-in's ingest endpoint, and one of the
 * app's), which keep receiving every span; an app that sets the processors itself passes
 * `ObsTraceProcessor`; observing twice adds one processor.
 */
import { startActiveObservation } from '@obs/core';
import {
  Agent,
  BatchTraceProcessor,
  getGlobalTraceProvider,
  OpenAITracingExporter,
  run,
  setTraceProcessors,
  type Span,
  type SpanData,
  type TracingProcessor,
} from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { ObsTraceProcessor, observeOpenAIAgents } from '../src/index.js';
import { setup } from './harness.js';

const t = setup({ observe: false });

class Recorder implements TracingProcessor {
  readonly ended: string[] = [];
  async onTraceStart(): Promise<void> {}
  async onTraceEnd(): Promise<void> {}
  async onSpanStart(): Promise<void> {}
  async onSpanEnd(span: Span<SpanData>): Promise<void> {
    this.ended.push(span.spanId);
  }
  async shutdown(): Promise<void> {}
  async forceFlush(): Promise<void> {}
}

const agent = new Agent({ name: 'Echo', instructions: 'Repeat.' });

/** The spans obs exports for one run of the agent under a root observation. */
const OBS_SPANS = ['Agent workflow', 'Echo', 'request', 'response'];

/** Runs the agent (one scripted answer) under a root observation and lets obs send; the trace's id. */
async function observedRun(): Promise<string> {
  t.standIn.script({ text: 'hello' });
  let traceId = '';
  await startActiveObservation('request', async (obs) => {
    traceId = obs.traceId;
    await run(agent, 'hello');
  });
  await t.settle();
  return traceId;
}

/** The names of the spans of the trace on the obs server, sorted. */
const exported = (traceId: string) =>
  t.local.server
    .spansByTrace(traceId)
    .map((s) => s.name)
    .sort();

/** The span items OpenAI's exporter sent to the stand-in's ingest endpoint. */
function ingested(): unknown[] {
  return t.standIn.requests
    .filter((r) => r.path === '/v1/traces/ingest')
    .flatMap((r) => (r.body['data'] as { object: string }[]).filter((item) => item.object === 'trace.span'));
}

describe("obs's processor beside the app's", () => {
  it("observeOpenAIAgents() adds to OpenAI's export and the app's processor, which still get every span", async () => {
    const app = new Recorder();
    const exporter = new OpenAITracingExporter({ apiKey: 'sk-tracing-test', endpoint: `${t.standIn.baseURL}/traces/ingest` });
    setTraceProcessors([new BatchTraceProcessor(exporter), app]);
    const processor = observeOpenAIAgents();
    expect(observeOpenAIAgents()).toBe(processor);
    const traceId = await observedRun();
    // The SDK's forceFlush reaches every processor: OpenAI's exporter posts, obs flushes.
    await getGlobalTraceProvider().forceFlush();
    // task, agent, turn, response: the SDK's four spans, to each of the three processors once.
    expect(app.ended).toHaveLength(4);
    expect(ingested()).toHaveLength(4);
    expect(exported(traceId)).toEqual(OBS_SPANS);
    expect(processor.openTraces).toBe(0);
  });

  it('observeOpenAIAgents() after setTraceProcessors replaced its processor adds a new one', async () => {
    const first = observeOpenAIAgents();
    setTraceProcessors([]);
    const second = observeOpenAIAgents();
    expect(second).not.toBe(first);
    expect(observeOpenAIAgents()).toBe(second);
    expect(exported(await observedRun())).toEqual(OBS_SPANS);
  });

  it('an app that sets the processors itself passes ObsTraceProcessor', async () => {
    const app = new Recorder();
    const processor = new ObsTraceProcessor();
    setTraceProcessors([app, processor]);
    const traceId = await observedRun();
    await getGlobalTraceProvider().forceFlush();
    expect(app.ended).toHaveLength(4);
    expect(ingested()).toHaveLength(0);
    expect(exported(traceId)).toEqual(OBS_SPANS);
  });
});
