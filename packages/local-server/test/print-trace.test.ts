import { describe, expect, it } from 'vitest';
import { decodeOtlpProtobuf, formatTrace, printTracesAsTheyArrive, type DecodedSpan } from '../src/index.js';
import { hasControls } from '../src/text/terminal.js';
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

describe('what the terminal is shown', () => {
  const hostile = (traceId: string, name: string, attributes: Record<string, string> = {}): DecodedSpan => ({
    ...decodeOtlpProtobuf(toProtobuf(makeSpans())).find((s) => s.name === 'search')!,
    traceId,
    parentSpanId: undefined,
    name,
    attributes,
  });

  it('escapes control characters in names, trace names, models, previews and status messages; names a trace by its root', () => {
    const text = formatTrace([
      hostile('a'.repeat(32), '\x1b[2J\x1b[Hcleared\r\n  Trace viewer: http://forged.example/', {
        'obs.observation.model.name': '\x1b]8;;http://x\x07link\x1b]8;;\x07',
        'obs.observation.input': 'bell\x07 and \u202egnp.exe',
      }),
      hostile('b'.repeat(32), 'nightly-job'),
    ]);
    expect(hasControls(text, true)).toBe(false);
    const lines = text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.some((l) => l.startsWith('  Trace viewer'))).toBe(false);
    expect(lines[0]).toContain('"\\x1b[2J\\x1b[Hcleared\\r\\n  Trace viewer: http://forged.example/"');
    expect(lines[1]).toContain('\\x1b[2J\\x1b[Hcleared\\r\\n  Trace viewer');
    expect(lines[1]).toContain('model: \\x1b]8;;http://x\\x07link\\x1b]8;;\\x07');
    expect(lines[1]).toContain('in: bell\\x07 and \\u202egnp.exe');
    expect(lines[2]).toMatch(new RegExp(`^trace ${'b'.repeat(32)} "nightly-job" \\(1 span, `));
  });

  it('prints at most 200 spans of a trace, counting the rest', () => {
    const root = hostile('c'.repeat(32), 'root');
    const kids = Array.from({ length: 250 }, (_, i) => ({
      ...root,
      spanId: String(i).padStart(16, '0'),
      parentSpanId: root.spanId,
      name: `k${i}`,
    }));
    const lines = formatTrace([root, ...kids], { maxSpans: 200 }).split('\n');
    expect(lines).toHaveLength(202);
    expect(lines[201]).toBe('… 51 more spans (open the trace in the viewer)');
  });

  it('prints a trace that got more spans again, whole, read back from the server; counts traces beyond 50 a second', async () => {
    let listener: ((spans: DecodedSpan[]) => void) | undefined;
    const all: DecodedSpan[] = [];
    const reads: string[] = [];
    const server = {
      subscribe(l: (spans: DecodedSpan[]) => void) {
        listener = (spans) => {
          all.push(...spans);
          l(spans);
        };
        return () => undefined;
      },
      spansByTrace(id: string) {
        reads.push(id);
        return all.filter((s) => s.traceId === id);
      },
    };
    const out: string[] = [];
    const stop = printTracesAsTheyArrive(server, (t) => out.push(t), { quietMs: 10, perSecond: 3 });
    const [first, second] = [hostile('d'.repeat(32), 'first'), { ...hostile('d'.repeat(32), 'second'), spanId: 'f'.repeat(16) }];
    listener!([first]);
    await new Promise((r) => setTimeout(r, 40));
    listener!([second]);
    await new Promise((r) => setTimeout(r, 40));
    expect(out.map((o) => /\((\d+) spans?/.exec(o)?.[1])).toEqual(['1', '2']);
    expect(reads).toEqual(['d'.repeat(32)]); // only the trace printed before is read back
    listener!(Array.from({ length: 6 }, (_, i) => hostile(String(i).repeat(32), `burst-${i}`)));
    await new Promise((r) => setTimeout(r, 1200));
    stop();
    expect(out.filter((o) => o.startsWith('trace ')).length).toBeLessThanOrEqual(5);
    expect(out.at(-1)).toMatch(/^… \d more traces? arrived \(more than 3 a second are not printed; the viewer has them all\)$/);
  });
});
