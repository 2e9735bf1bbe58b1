/**
 * The viewer's live updates: a server-sent event stream per open page, told which traces
 * changed whenever spans arrive.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TraceSummary } from '../model/trace-summary.js';
import type { TraceStore } from '../stores/types.js';
import type { DecodedSpan } from '../types.js';

/** The open event streams. */
export class LiveEvents {
  private readonly clients = new Set<ServerResponse>();

  constructor(private readonly traces: TraceStore) {}

  /** Opens a stream on `res`; it stays open until the page goes. */
  open(req: IncomingMessage, res: ServerResponse, headers: Readonly<Record<string, string>>): void {
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', connection: 'keep-alive' });
    res.write(': connected\n\n');
    this.clients.add(res);
    req.on('close', () => this.clients.delete(res));
  }

  /** Tells open pages the summaries of the traces these spans belong to. */
  notify(spans: readonly DecodedSpan[]): void {
    if (this.clients.size === 0) return;
    const ids = [...new Set(spans.map((s) => s.traceId))];
    const rows = ids.map((id) => this.traces.get(id)).filter((s): s is TraceSummary => s !== undefined);
    const data = `event: traces\ndata: ${JSON.stringify(rows)}\n\n`;
    for (const res of this.clients) res.write(data);
  }
}
