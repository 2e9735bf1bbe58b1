/**
 * A local Sentry DSN sink: an HTTP server that takes what a Sentry SDK's own transport sends to
 * `http://public@127.0.0.1:<port>/1` (envelopes, gzip or not) and keeps each transaction and span
 * it carried, so a test counts what Sentry really sent: Sentry 10's transactions with their child
 * spans, Sentry 11's streamed spans.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span Sentry sent: a transaction's root (`scope: 'transaction'`), a child, or a streamed span. */
export interface SentSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  /** `transaction`, `segment` (a streamed root), else the span's origin (`auto.http.express`, ...). */
  scope: string;
  /** The outgoing request a span describes (`url` / `http.url` data), when it is one. */
  url?: string;
}

export interface SentrySink {
  dsn: string;
  /** Everything received since the last reset. */
  spans(): SentSpan[];
  /** How many transactions arrived (Sentry 10). */
  transactions(): SentSpan[];
  reset(): void;
  close(): Promise<void>;
}

type Item = Record<string, unknown> & { spans?: Item[]; items?: Item[]; contexts?: { trace?: Item }; data?: Record<string, unknown> };

function urlOf(data: Record<string, unknown> | undefined): string | undefined {
  const value = data?.url ?? data?.['http.url'] ?? data?.['url.full'];
  return typeof value === 'string' ? value : (value as { value?: string } | undefined)?.value;
}

/** The spans of one envelope body. */
function parseEnvelope(body: string): SentSpan[] {
  const lines = body.split('\n');
  const out: SentSpan[] = [];
  for (let i = 1; i + 1 < lines.length; i += 2) {
    const header = JSON.parse(lines[i]!) as { type?: string };
    const item = JSON.parse(lines[i + 1]!) as Item;
    if (header.type === 'transaction') {
      const trace = item.contexts?.trace ?? {};
      out.push({
        name: String(item.transaction),
        spanId: String(trace.span_id),
        parentSpanId: trace.parent_span_id as string | undefined,
        scope: 'transaction',
        url: urlOf(trace.data as Record<string, unknown>),
      });
      for (const s of item.spans ?? [])
        out.push({
          name: String(s.description),
          spanId: String(s.span_id),
          parentSpanId: s.parent_span_id as string | undefined,
          scope: String(s.origin ?? ''),
          url: urlOf(s.data),
        });
    } else if (header.type === 'span') {
      for (const s of item.items ?? []) {
        const attributes = s.attributes as Record<string, { value?: unknown }> | undefined;
        out.push({
          name: String(s.name),
          spanId: String(s.span_id),
          parentSpanId: s.parent_span_id as string | undefined,
          scope: s.is_segment ? 'segment' : String(attributes?.['sentry.origin']?.value ?? ''),
          url: urlOf(attributes as Record<string, unknown>),
        });
      }
    }
  }
  return out;
}

export async function startSentrySink(): Promise<SentrySink> {
  let received: SentSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      try {
        received.push(...parseEnvelope(body.toString('utf8')));
      } catch {
        // Not an envelope this sink reads (sessions, client reports): nothing to count.
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dsn: `http://public@127.0.0.1:${port}/1`,
    spans: () => [...received],
    transactions: () => received.filter((s) => s.scope === 'transaction'),
    reset: () => {
      received = [];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
