import { describe, expect, it } from 'vitest';
import { decodeOtlpProtobuf, formatTrace, printTracesAsTheyArrive, type DecodedSpan } from '../src/index.js';
import { makeSpans, toProtobuf } from './helpers.js';

describe('formatTrace', () => {
  it('prints one indented tree per trace, in tree order, with types, durations and previews', () => {
    // Arrival order is leaf first (the exporter sees spans as they end): the tree must not care.
    const spans = decodeOtlpProtobuf(toProtobuf(makeSpans()));
    expect(spans.map((s) => s.name)).toEqual(['search', 'llm-call', 'POST /chat']);
    const text = formatTrace(spans);
    const lines = text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(new RegExp(`^trace ${spans[0]!.traceId} "chat" \\(3 spans, \\d+\\.\\dms\\)$`));
    expect(lines[1]).toMatch(/^└─ \[span\] POST \/chat \d+\.\dms in: \{"q":"hi"\} out: \{"a":"hello"\}$/);
    expect(lines[2]).toMatch(/^ {3}└─ \[generation\] llm-call \d+\.\dms model: gpt-test ERROR: boom$/);
    expect(lines[3]).toMatch(/^ {6}└─ \[tool\] search \d+\.\dms$/);
  });

  it('orders siblings by start time, truncates long previews, and groups several traces', () => {
    const base = decodeOtlpProtobuf(toProtobuf(makeSpans()));
    const root = base.find((s) => s.name === 'POST /chat')!;
    const sibling = (name: string, startOffset: bigint, input?: string): DecodedSpan => ({
      ...root,
      spanId: `${name.length}`.padStart(16, 'f'),
      parentSpanId: root.spanId,
      name,
      startTimeUnixNano: root.startTimeUnixNano + startOffset,
      attributes: input ? { 'obs.observation.input': input } : {},
    });
    const late = sibling('late-one', 10n);
    const early = sibling('early', 5n, 'x'.repeat(500));
    const other = { ...root, traceId: 'f'.repeat(32), name: 'other-root' };
    const text = formatTrace([root, late, early, other]);
    const names = text.split('\n').map((l) => /\] (\S+)/.exec(l)?.[1] ?? l.slice(0, 5));
    expect(names).toEqual(['trace', 'POST', 'early', 'late-one', 'trace', 'other-root']);
    expect(text).toContain('[otel] early');
    expect(text).toMatch(/in: x{59}…/);
    expect(text).not.toContain('x'.repeat(61));
    expect(formatTrace([])).toBe('');
  });
});

describe('printTracesAsTheyArrive', () => {
  it('prints a trace once it has been quiet, via subscribe', async () => {
    let listener: ((spans: DecodedSpan[]) => void) | undefined;
    const server = {
      subscribe(l: (spans: DecodedSpan[]) => void) {
        listener = l;
        return () => {
          listener = undefined;
        };
      },
    };
    const out: string[] = [];
    const stop = printTracesAsTheyArrive(server, (t) => out.push(t), { quietMs: 40 });
    const spans = decodeOtlpProtobuf(toProtobuf(makeSpans()));
    listener!(spans.slice(0, 1));
    await new Promise((r) => setTimeout(r, 15));
    listener!(spans.slice(1));
    expect(out).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 80));
    expect(out).toHaveLength(1);
    expect(out[0]).toContain('(3 spans');
    stop();
    expect(listener).toBeUndefined();
  });
});
