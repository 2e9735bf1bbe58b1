/**
 * One invocation's trace: the root observation (core's request observation, so identify, capture,
 * redaction and the 4xx/5xx rule are those of every adapter), one child per record of a batch,
 * the FaaS attributes and metadata (request id, cold start), and the end: the result's output or
 * the thrown error. Delivery is `deliver.ts`'s; how the handler is called is `wrap-handler.ts`'s.
 */
import { ROOT_CONTEXT, SpanKind, context, propagation } from '@opentelemetry/api';
import { ObsAttributes, startObservation, type ObsObservation } from '@obs/core';
import { captureValue, type HttpObserver, type RequestObservation } from '@obs/core/http';
import { answerOf, requestBody, withHeader } from './http-event.js';
import type { LambdaContextLike } from './options.js';
import type { StreamOutput } from './response-stream.js';
import type { RecordView, Trigger } from './triggers.js';

const METADATA = ObsAttributes.OBSERVATION_METADATA;

/** True until the first invocation of this process starts: a cold start (provisioned ones excepted). */
let coldStart = process.env.AWS_LAMBDA_INITIALIZATION_TYPE !== 'provisioned-concurrency';

export class Invocation {
  readonly ro: RequestObservation;
  private readonly children: Array<{ view: RecordView; observation: ObsObservation }> = [];
  /** Set for a streamed response: what the stream sent is the output. */
  stream?: StreamOutput;

  constructor(
    private readonly layer: HttpObserver,
    event: unknown,
    lambda: LambdaContextLike,
    private readonly trigger: Trigger,
  ) {
    const cold = coldStart;
    coldStart = false;
    const t = trigger;
    const attributes: Record<string, string | number | boolean> = {
      'faas.trigger': t.type === 'http' ? 'http' : t.faas,
      'faas.coldstart': cold,
      'cloud.provider': 'aws',
      'cloud.platform': 'aws_lambda',
      [`${METADATA}.coldStart`]: cold,
    };
    if (lambda.awsRequestId) {
      attributes['faas.invocation_id'] = lambda.awsRequestId;
      attributes[`${METADATA}.requestId`] = lambda.awsRequestId;
    }
    if (lambda.functionName) attributes['faas.name'] = lambda.functionName;
    if (lambda.functionVersion) attributes['faas.version'] = lambda.functionVersion;
    if (lambda.invokedFunctionArn) attributes['cloud.resource_id'] = lambda.invokedFunctionArn;
    if (t.type === 'http') {
      // A caller's `traceparent` continues its trace.
      const parent = propagation.extract(ROOT_CONTEXT, t.headers);
      this.ro = layer.start({ req: event, method: t.method, path: t.path, route: t.route, parent, attributes });
      this.ro.setInput(requestBody(t), t.query);
    } else {
      const name = t.name ?? lambda.functionName ?? 'lambda';
      const kind = t.faas === 'pubsub' ? SpanKind.CONSUMER : SpanKind.SERVER;
      this.ro = layer.start({ req: event, method: '', path: '', parent: ROOT_CONTEXT, attributes, event: { name, kind } });
      this.ro.setInput(event);
      for (const view of t.records) this.children.push({ view, observation: this.startRecord(view) });
    }
  }

  /** The context the handler runs in: the root active, identify's attributes flowing. */
  get context() {
    return this.ro.context;
  }

  /** The handler's result, as the caller gets it: with the trace-id header when it is an HTTP response. */
  answer<R>(result: R): R {
    const header = this.layer.traceIdHeader;
    return header && this.trigger.type === 'http' ? withHeader(result, header, this.ro.traceId) : result;
  }

  /** The handler returned `result` (or the stream ended): the output, the status, the end. */
  succeed(result: unknown): void {
    let statusCode: number | undefined;
    if (this.stream) {
      this.stream.finish();
      statusCode = this.stream.statusCode;
    } else if (this.trigger.type === 'http') {
      const answer = answerOf(result);
      statusCode = answer.statusCode;
      this.ro.setOutput(answer.body, result, answer.contentType);
    } else {
      this.ro.setOutput(result, result);
      this.markFailedRecords(result);
    }
    this.end({ statusCode });
  }

  /** The handler threw (or called back with an error): ERROR with its message, on the root. */
  fail(error: unknown): void {
    this.stream?.finish();
    this.ro.recordError(error);
    this.end({ statusCode: this.stream?.statusCode });
  }

  private end(init: { statusCode?: number }): void {
    for (const { observation } of this.children) observation.end();
    // An HTTP invocation has a status; an event's is its outcome alone.
    this.ro.finish(this.trigger.type === 'http' ? init : {});
  }

  private startRecord(view: RecordView): ObsObservation {
    const observation = startObservation(view.name, { metadata: view.metadata }, { parentContext: this.ro.context });
    const text = captureValue(view.input, this.layer.redactKeys, this.layer.maxChars);
    if (text !== undefined && this.layer.options.captureInput !== false)
      observation.otelSpan.setAttribute(ObsAttributes.OBSERVATION_INPUT, text);
    return observation;
  }

  /** A partial batch response (`{ batchItemFailures: [{ itemIdentifier }] }`) names the records that failed. */
  private markFailedRecords(result: unknown): void {
    const failures = (result as { batchItemFailures?: unknown } | null | undefined)?.batchItemFailures;
    if (!Array.isArray(failures) || failures.length === 0) return;
    const failed = new Set(failures.map((f) => String((f as { itemIdentifier?: unknown })?.itemIdentifier)));
    for (const { view, observation } of this.children) {
      if (view.itemId !== undefined && failed.has(view.itemId))
        observation.update({ level: 'ERROR', statusMessage: 'reported as failed in batchItemFailures' });
    }
  }
}

/** Runs `fn` in the invocation's context. */
export function runIn<T>(invocation: Invocation, fn: () => T): T {
  return context.with(invocation.context, fn);
}
