/**
 * Splits an encoded OTLP `ExportTraceServiceRequest` in two by its spans, without decoding them:
 * what the delivery queue needs when the server refuses a batch as too large (413), now that it
 * holds request bodies instead of span objects. Each half keeps its spans' `ResourceSpans` and
 * `ScopeSpans` heads (resource, scope, schema URLs), copied byte for byte.
 */
import type { RequestPart } from '../../../delivery/sender.js';

/** A field of a message: its whole encoding (tag to end) and, when length-delimited, its payload. */
interface Field {
  field: number;
  start: number;
  end: number;
  payloadStart: number;
}

/** ExportTraceServiceRequest.resource_spans, ResourceSpans.scope_spans, ScopeSpans.spans. */
const CHILDREN = 1;
const SCOPE_SPANS = 2;
const SPANS = 2;
const LEN = 2;

function readVarint(b: Uint8Array, pos: number, end: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (;;) {
    if (pos >= end) throw new Error('truncated varint');
    const byte = b[pos++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, pos];
    scale *= 128;
    if (scale > 2 ** 63) throw new Error('varint too long');
  }
}

/** The fields of the message in `b[start, end)`, in order. */
function fieldsOf(b: Uint8Array, start: number, end: number): Field[] {
  const out: Field[] = [];
  let pos = start;
  while (pos < end) {
    const at = pos;
    let key: number;
    [key, pos] = readVarint(b, pos, end);
    const wireType = key % 8;
    let payloadStart = pos;
    if (wireType === 0) [, pos] = readVarint(b, pos, end);
    else if (wireType === 1) pos += 8;
    else if (wireType === 5) pos += 4;
    else if (wireType === LEN) {
      let len: number;
      [len, payloadStart] = readVarint(b, pos, end);
      pos = payloadStart + len;
    } else throw new Error(`unsupported wire type ${wireType}`);
    if (pos > end) throw new Error('truncated field');
    out.push({ field: Math.floor(key / 8), start: at, end: pos, payloadStart });
  }
  return out;
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

/** A length-delimited field `field` holding `parts` back to back. */
function message(field: number, parts: Uint8Array[]): Uint8Array {
  const len = parts.reduce((n, p) => n + p.length, 0);
  return concat([Uint8Array.from([...varint((field << 3) | LEN), ...varint(len)]), ...parts]);
}

/** The span fields of a request, each with the heads of its `ResourceSpans` and `ScopeSpans`. */
interface SpanRef {
  resource: number;
  scope: number;
  bytes: Uint8Array;
}

/** A message's fields other than its children, before and after them (as they came). */
interface Heads {
  before: Uint8Array[];
  after: Uint8Array[];
}

/** Files a non-child field of a message as it came: before its first child or after. */
function addHead(heads: Heads, bytes: Uint8Array, seenChild: boolean): void {
  (seenChild ? heads.after : heads.before).push(bytes);
}

/**
 * Splits `body` (uncompressed) into two requests of about half the spans each, in order. A
 * request of fewer than two spans cannot be split: it comes back as one part.
 *
 * @throws Error when `body` is not a well-formed request
 */
export function splitTraceExportRequest(body: Uint8Array): RequestPart[] {
  const resourceHeads: Heads[] = [];
  const scopeHeads: Heads[] = [];
  const spans: SpanRef[] = [];
  for (const rs of fieldsOf(body, 0, body.length)) {
    if (rs.field !== CHILDREN) continue;
    const heads: Heads = { before: [], after: [] };
    const resource = resourceHeads.push(heads) - 1;
    let seenScope = false;
    for (const f of fieldsOf(body, rs.payloadStart, rs.end)) {
      if (f.field !== SCOPE_SPANS) {
        addHead(heads, body.subarray(f.start, f.end), seenScope);
        continue;
      }
      seenScope = true;
      const scopeHead: Heads = { before: [], after: [] };
      const scope = scopeHeads.push(scopeHead) - 1;
      let seenSpan = false;
      for (const g of fieldsOf(body, f.payloadStart, f.end)) {
        if (g.field === SPANS) {
          seenSpan = true;
          spans.push({ resource, scope, bytes: body.subarray(g.start, g.end) });
        } else addHead(scopeHead, body.subarray(g.start, g.end), seenSpan);
      }
    }
  }
  if (spans.length < 2) return [{ body, items: spans.length }];
  const half = Math.ceil(spans.length / 2);
  return [spans.slice(0, half), spans.slice(half)].map((part) => {
    // Each run of a resource's (and within it a scope's) spans is framed by that message's heads.
    const resources: Uint8Array[] = [];
    for (let i = 0; i < part.length; ) {
      const resource = part[i]!.resource;
      const scopes: Uint8Array[] = [];
      while (i < part.length && part[i]!.resource === resource) {
        const scope = part[i]!.scope;
        const spansOfScope: Uint8Array[] = [];
        for (; i < part.length && part[i]!.scope === scope; i++) spansOfScope.push(part[i]!.bytes);
        scopes.push(message(SCOPE_SPANS, [...scopeHeads[scope]!.before, ...spansOfScope, ...scopeHeads[scope]!.after]));
      }
      resources.push(message(CHILDREN, [...resourceHeads[resource]!.before, ...scopes, ...resourceHeads[resource]!.after]));
    }
    return { body: concat(resources), items: part.length };
  });
}
