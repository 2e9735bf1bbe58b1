import {
  SpanStatusCode,
  type Attributes,
  type AttributeValue,
  type Exception,
  type HrTime,
  type Link,
  type Span,
  type SpanContext,
  type SpanKind,
  type SpanStatus,
  type TimeInput,
} from '@opentelemetry/api';
import { isAttributeValue } from './attribute-value.js';
import type { ReadableSpan, TimedEvent } from '../sdk-types.js';
import { msToHrTime, nowMs, timeInputToMs } from './clock.js';
import type { LightSampler } from './sampler.js';
import type { LightSpanLimits } from './span-limits.js';
import {
  EPOCH_MS,
  type EpochMsSpan,
  EXPORT_PARENT,
  IN_OBS_TRACE,
  MEDIA_BYTES,
  MEDIA_STATE,
  NEAREST_ANY,
  NEAREST_OBS,
  REQUEST_BOX,
} from '../span-slots.js';

/** What a light span needs of the processors: the SDK's `SpanProcessor` hooks it calls. */
export interface SpanHooks {
  onStart(span: LightSpan, parentContext: import('@opentelemetry/api').Context): void;
  onEnding?(span: LightSpan): void;
  onEnd(span: LightSpan): void;
}

/** What every span of one tracer shares. */
export interface LightTracerState {
  readonly resource: ReadableSpan['resource'];
  readonly instrumentationScope: ReadableSpan['instrumentationScope'];
  readonly limits: LightSpanLimits;
  readonly sampler: LightSampler;
  readonly hooks: SpanHooks;
}

const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET }) as SpanStatus;
/** Shared until the first link or event: most spans have none. */
const NO_LINKS: Link[] = Object.freeze([]) as unknown as Link[];
const NO_EVENTS: TimedEvent[] = Object.freeze([]) as unknown as TimedEvent[];

/**
 * The span of obs's own tracer provider: the OpenTelemetry API `Span` and the SDK's
 * `ReadableSpan`, so OpenTelemetry instrumentations, span processors and exporters use it as
 * they use the SDK's span. It keeps times as numbers and builds `HrTime`s only when read (at
 * export), writes attributes straight into one object, and shares empty link/event lists and
 * the unset status, so a span is a few small objects instead of the SDK's dozen.
 */
export class LightSpan implements Span, ReadableSpan, EpochMsSpan {
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  readonly attributes: Attributes = {};
  links: Link[] = NO_LINKS;
  events: TimedEvent[] = NO_EVENTS;
  status: SpanStatus = UNSET;
  name: string;
  readonly resource: ReadableSpan['resource'];
  readonly instrumentationScope: ReadableSpan['instrumentationScope'];
  /** Epoch milliseconds. */
  startMs: number;
  /** Epoch milliseconds; 0 until ended. */
  endMs = 0;
  private attributeCount = 0;
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  droppedLinksCount = 0;
  private startHr: HrTime | undefined;
  private endHr: HrTime | undefined;
  private readonly limits: LightSpanLimits;
  private readonly hooks: SpanHooks;
  // The processor's slots (span-slots.ts), declared so every span has one shape.
  [REQUEST_BOX]: unknown = undefined;
  [IN_OBS_TRACE]: unknown = undefined;
  [NEAREST_OBS]: unknown = undefined;
  [NEAREST_ANY]: unknown = undefined;
  [EXPORT_PARENT]: unknown = undefined;
  [MEDIA_BYTES]: unknown = undefined;
  [MEDIA_STATE]: unknown = undefined;

  constructor(
    tracer: LightTracerState,
    private readonly _spanContext: SpanContext,
    name: string,
    kind: SpanKind,
    parentSpanContext: SpanContext | undefined,
    startTime: TimeInput | undefined,
  ) {
    this.name = name;
    this.kind = kind;
    this.parentSpanContext = parentSpanContext;
    this.resource = tracer.resource;
    this.instrumentationScope = tracer.instrumentationScope;
    this.limits = tracer.limits;
    this.hooks = tracer.hooks;
    this.startMs = (startTime !== undefined ? timeInputToMs(startTime) : undefined) ?? nowMs();
  }

  /** Its times are `startMs` and `endMs` (on the prototype: no field per span). */
  get [EPOCH_MS](): true {
    return true;
  }

  spanContext(): SpanContext {
    return this._spanContext;
  }

  setAttribute(key: string, value: AttributeValue | undefined): this {
    if (value === undefined || value === null || this.endMs !== 0 || key.length === 0) return this;
    const t = typeof value;
    if (t !== 'string' && t !== 'number' && t !== 'boolean' && !isAttributeValue(value)) return this;
    const attributes = this.attributes;
    if (attributes[key] === undefined) {
      if (this.attributeCount >= this.limits.attributeCountLimit) {
        this.droppedAttributesCount++;
        return this;
      }
      this.attributeCount++;
    }
    attributes[key] = this.limits.attributeValueLengthLimit === Number.POSITIVE_INFINITY ? value : this.truncate(value);
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) {
      if (Object.hasOwn(attributes, key)) this.setAttribute(key, attributes[key]);
    }
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.endMs !== 0) return this;
    // (name, time) or (name, attributes, time): a time in second place counts when the third is none.
    const second = timeInputToMs(attributesOrTime as TimeInput);
    const attributes = second === undefined ? (attributesOrTime as Attributes | undefined) : undefined;
    const limit = this.limits.eventCountLimit;
    if (limit === 0) {
      this.droppedEventsCount++;
      return this;
    }
    if (this.events === NO_EVENTS) this.events = [];
    if (this.events.length >= limit) {
      this.events.shift();
      this.droppedEventsCount++;
    }
    const at = (time !== undefined ? timeInputToMs(time) : undefined) ?? second ?? nowMs();
    this.events.push({ name, attributes: this.clean(attributes), time: msToHrTime(at), droppedAttributesCount: 0 });
    return this;
  }

  addLink(link: Link): this {
    if (this.endMs !== 0) return this;
    const limit = this.limits.linkCountLimit;
    if (limit === 0) {
      this.droppedLinksCount++;
      return this;
    }
    if (this.links === NO_LINKS) this.links = [];
    if (this.links.length >= limit) {
      this.links.shift();
      this.droppedLinksCount++;
    }
    const attributes = link.attributes ? this.clean(link.attributes) : undefined;
    this.links.push(attributes && Object.keys(attributes).length > 0 ? { context: link.context, attributes } : { context: link.context });
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    // As the SDK: UNSET changes nothing and OK is final.
    if (this.endMs !== 0 || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    this.status =
      status.code === SpanStatusCode.ERROR && typeof status.message === 'string'
        ? { code: status.code, message: status.message }
        : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (this.endMs === 0) this.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.endMs !== 0) return;
    let end = (endTime !== undefined ? timeInputToMs(endTime) : undefined) ?? nowMs();
    if (end < this.startMs) end = this.startMs;
    // As the SDK: onEnding sees a span still writable, onEnd an ended one.
    const hooks = this.hooks;
    hooks.onEnding?.(this);
    this.endMs = end;
    hooks.onEnd(this);
  }

  isRecording(): boolean {
    return this.endMs === 0;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') {
      attributes['exception.message'] = exception;
    } else if (exception) {
      if (exception.code) attributes['exception.type'] = exception.code.toString();
      else if (exception.name) attributes['exception.type'] = exception.name;
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    if (attributes['exception.type'] || attributes['exception.message']) this.addEvent('exception', attributes, time);
  }

  get startTime(): HrTime {
    this.startHr ??= msToHrTime(this.startMs);
    return this.startHr;
  }

  get endTime(): HrTime {
    if (this.endMs <= 0) return [0, 0];
    this.endHr ??= msToHrTime(this.endMs);
    return this.endHr;
  }

  get duration(): HrTime {
    return this.endMs <= 0 ? [-1, -1] : msToHrTime(this.endMs - this.startMs);
  }

  get ended(): boolean {
    return this.endMs !== 0;
  }

  /** Valid attributes of an event or link, cut to the value length limit. */
  private clean(attributes: Attributes | undefined): Attributes {
    const out: Attributes = {};
    if (!attributes) return out;
    for (const key in attributes) {
      const value = attributes[key];
      if (Object.hasOwn(attributes, key) && key.length > 0 && value !== undefined && value !== null && isAttributeValue(value)) {
        out[key] = this.truncate(value);
      }
    }
    return out;
  }

  private truncate(value: AttributeValue): AttributeValue {
    const limit = this.limits.attributeValueLengthLimit;
    if (limit === Number.POSITIVE_INFINITY) return value;
    if (typeof value === 'string') return value.length > limit ? value.slice(0, limit) : value;
    if (Array.isArray(value))
      return value.map((v) => (typeof v === 'string' && v.length > limit ? v.slice(0, limit) : v)) as AttributeValue;
    return value;
  }
}
