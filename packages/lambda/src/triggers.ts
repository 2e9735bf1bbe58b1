/**
 * What an invocation is, read from its event's shape alone (no AWS library at run time): an HTTP
 * request (API Gateway REST v1 and HTTP API v2, a function URL, an application load balancer), a
 * batch of records (SQS, SNS, S3, DynamoDB and Kinesis streams: one child per record), an
 * EventBridge event, or anything else (named after the function). The event types of
 * `@types/aws-lambda` are used for reading only: nothing public depends on them.
 */
import type {
  ALBEvent,
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  DynamoDBRecord,
  EventBridgeEvent,
  KinesisStreamRecord,
  S3EventRecord,
  SNSEventRecord,
  SQSRecord,
} from 'aws-lambda';
import { type Dict, isDict } from '@obs/core/kit';

/** An HTTP request: what the request observation of core is started with. */
export interface HttpTrigger {
  type: 'http';
  method: string;
  /** The URL path without the query string. */
  path: string;
  /** The route as the gateway names it (`/chat/{id}`), when it has one. */
  route?: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string | null | undefined;
  isBase64Encoded: boolean;
  query: unknown;
}

/** One record of a batch: a child observation of the invocation. */
export interface RecordView {
  name: string;
  input: unknown;
  metadata: Record<string, unknown>;
  /** The id a partial batch response names a failed record by (`batchItemFailures[].itemIdentifier`). */
  itemId?: string;
}

/** A batch of records, or a single event, that is not an HTTP request. */
export interface EventTrigger {
  type: 'event';
  /** `sqs orders`, `eventbridge Order Placed`; undefined: the function's name. */
  name?: string;
  /** OpenTelemetry's `faas.trigger`. */
  faas: 'pubsub' | 'datasource' | 'timer' | 'other';
  records: RecordView[];
}

export type Trigger = HttpTrigger | EventTrigger;

/** What the event is. Never throws: an event of no known shape is `other`. */
export function triggerOf(event: unknown): Trigger {
  try {
    if (isDict(event)) return httpTrigger(event) ?? recordsTrigger(event) ?? eventBridgeTrigger(event) ?? other();
  } catch {
    // A getter that throws, a shape half like a known one: the invocation is still traced, as `other`.
  }
  return other();
}

function other(): EventTrigger {
  return { type: 'event', faas: 'other', records: [] };
}

function httpTrigger(event: Dict): HttpTrigger | undefined {
  const rc = event.requestContext;
  if (!isDict(rc)) return undefined;
  // HTTP API (payload 2.0) and function URLs.
  if (event.version === '2.0' && isDict(rc.http)) {
    const e = event as unknown as APIGatewayProxyEventV2;
    const routeKey = e.routeKey ?? e.requestContext.routeKey;
    const space = typeof routeKey === 'string' ? routeKey.indexOf(' ') : -1;
    const isUrl = String(e.requestContext.domainName ?? '').includes('.lambda-url.');
    return {
      type: 'http',
      method: e.requestContext.http.method,
      path: e.rawPath ?? e.requestContext.http.path,
      // `$default` and function URLs have no route: they are named by method and path.
      route: !isUrl && space > 0 ? routeKey.slice(space + 1) : undefined,
      headers: lowerCased(e.headers),
      body: e.body,
      isBase64Encoded: e.isBase64Encoded === true,
      query: e.queryStringParameters,
    };
  }
  if (typeof event.httpMethod !== 'string') return undefined;
  // An application load balancer: no route, named by method and path.
  if (isDict(rc.elb)) {
    const e = event as unknown as ALBEvent;
    return http(e.httpMethod, e.path, undefined, e.headers, e.multiValueHeaders, e.body, e.isBase64Encoded, e.queryStringParameters);
  }
  // REST API (payload 1.0): the resource is the route.
  const e = event as unknown as APIGatewayProxyEvent;
  return http(e.httpMethod, e.path, e.resource, e.headers, e.multiValueHeaders, e.body, e.isBase64Encoded, e.queryStringParameters);
}

function http(
  method: string,
  path: string,
  route: string | undefined,
  headers: Record<string, unknown> | null | undefined,
  multi: Record<string, unknown[] | undefined> | null | undefined,
  body: string | null,
  base64: boolean,
  query: unknown,
): HttpTrigger {
  // An ALB with multi-value headers on sends only `multiValueHeaders`.
  const all = { ...lowerCased(multiFirst(multi)), ...lowerCased(headers) };
  return {
    type: 'http',
    method,
    path: path || '/',
    route: route || undefined,
    headers: all,
    body,
    isBase64Encoded: base64 === true,
    query,
  };
}

function recordsTrigger(event: Dict): EventTrigger | undefined {
  const records = event.Records;
  if (!Array.isArray(records) || records.length === 0 || !isDict(records[0])) return undefined;
  const first = records[0] as Dict;
  const source = first.eventSource ?? first.EventSource;
  switch (source) {
    case 'aws:sqs':
      return batch(`sqs ${lastPart(first.eventSourceARN, ':')}`, 'pubsub', records as SQSRecord[], sqsRecord);
    case 'aws:sns':
      return batch(
        `sns ${lastPart((first as unknown as SNSEventRecord).Sns?.TopicArn, ':')}`,
        'pubsub',
        records as SNSEventRecord[],
        snsRecord,
      );
    case 'aws:s3':
      return batch(
        `s3 ${(first as unknown as S3EventRecord).s3?.bucket?.name ?? 'bucket'}`,
        'datasource',
        records as S3EventRecord[],
        s3Record,
      );
    case 'aws:dynamodb':
      return batch(`dynamodb ${arnResource(first.eventSourceARN, 'table')}`, 'datasource', records as DynamoDBRecord[], dynamoRecord);
    case 'aws:kinesis':
      return batch(`kinesis ${arnResource(first.eventSourceARN, 'stream')}`, 'datasource', records as KinesisStreamRecord[], kinesisRecord);
    default:
      return undefined;
  }
}

function batch<R>(name: string, faas: EventTrigger['faas'], records: R[], view: (r: R) => RecordView): EventTrigger {
  return { type: 'event', name, faas, records: records.map(view) };
}

function sqsRecord(r: SQSRecord): RecordView {
  return {
    name: `message ${r.messageId}`,
    input: parsed(r.body),
    metadata: { messageId: r.messageId, receiveCount: Number(r.attributes?.ApproximateReceiveCount) || undefined },
    itemId: r.messageId,
  };
}

function snsRecord(r: SNSEventRecord): RecordView {
  const sns = r.Sns ?? ({} as SNSEventRecord['Sns']);
  return {
    name: `message ${sns.MessageId}`,
    input: parsed(sns.Message),
    metadata: { messageId: sns.MessageId, subject: sns.Subject ?? undefined },
  };
}

function s3Record(r: S3EventRecord): RecordView {
  const key = r.s3?.object?.key;
  return {
    name: `${r.eventName} ${key}`,
    input: { bucket: r.s3?.bucket?.name, key, size: r.s3?.object?.size },
    metadata: { eventName: r.eventName },
  };
}

function dynamoRecord(r: DynamoDBRecord): RecordView {
  return {
    name: `${r.eventName} ${r.eventID}`,
    input: r.dynamodb,
    metadata: { eventId: r.eventID },
    itemId: r.dynamodb?.SequenceNumber,
  };
}

function kinesisRecord(r: KinesisStreamRecord): RecordView {
  const data = r.kinesis?.data;
  return {
    name: `record ${r.kinesis?.sequenceNumber}`,
    input: typeof data === 'string' ? parsed(Buffer.from(data, 'base64').toString('utf8')) : undefined,
    metadata: { partitionKey: r.kinesis?.partitionKey },
    itemId: r.kinesis?.sequenceNumber,
  };
}

function eventBridgeTrigger(event: Dict): EventTrigger | undefined {
  const e = event as unknown as EventBridgeEvent<string, unknown>;
  if (typeof e['detail-type'] !== 'string' || typeof e.source !== 'string' || !('detail' in e)) return undefined;
  const scheduled = e.source === 'aws.events' || e.source === 'aws.scheduler';
  return { type: 'event', name: `eventbridge ${e['detail-type']}`, faas: scheduled ? 'timer' : 'pubsub', records: [] };
}

/** A message body: its JSON value when it is JSON, else the text. */
export function parsed(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  const c = text.trimStart()[0];
  if (c !== '{' && c !== '[') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function lastPart(value: unknown, separator: string): string {
  return typeof value === 'string' && value ? (value.split(separator).pop() ?? value) : 'unknown';
}

/** `table/orders/stream/2024...` in an ARN: `orders`. */
function arnResource(arn: unknown, kind: string): string {
  if (typeof arn !== 'string') return 'unknown';
  const m = arn.match(new RegExp(`:${kind}/([^/]+)`));
  return m?.[1] ?? 'unknown';
}

function lowerCased(headers: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isDict(headers)) return out;
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && v !== null) out[k.toLowerCase()] = String(v);
  return out;
}

function multiFirst(multi: Record<string, unknown[] | undefined> | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isDict(multi)) return out;
  for (const [k, v] of Object.entries(multi)) if (Array.isArray(v) && v.length > 0) out[k] = v.join(', ');
  return out;
}
