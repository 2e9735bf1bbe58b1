// Building the page: elements from data (always as text, never as HTML), the viewer's reads,
// and how times, durations and costs read.

/** Creates an element: h('div', { class: 'x', onclick }, child, 'text', ...). Strings become text nodes. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** A viewer read, as JSON. */
export async function getJson(path) {
  const res = await fetch(path, { cache: 'no-store' });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.json();
}

/** The page's header line: a way back, a title, and what follows. */
export function head(back, title, ...rest) {
  return h('div', { class: 'trace-head' }, back ? h('a', { href: back[0] }, `← ${back[1]}`) : null, h('h2', {}, title), rest);
}

/** Clock time of epoch ms, to the millisecond. */
export const fmtTime = (ms) => {
  const whole = Math.floor(ms);
  return `${new Date(whole).toLocaleTimeString(undefined, { hour12: false })}.${String(whole % 1000).padStart(3, '0')}`;
};

/** Date and clock time of epoch ms or an ISO string. */
export const fmtDate = (t) => {
  const d = new Date(t);
  return `${d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })} ${d.toLocaleTimeString(undefined, { hour12: false })}`;
};

/** Three significant digits, without trailing zeros. */
const sig = (n) => String(Number(n.toPrecision(3)));

/** A duration in ms at its own scale: ns, µs, ms, s, min (a 0.3 ms generation reads `300 µs`, not `0 µs`). */
export function fmtDuration(ms) {
  if (!(ms > 0)) return ms === 0 ? '0 µs' : '';
  if (ms < 0.001) return `${sig(ms * 1e6)} ns`;
  if (ms < 1) return `${sig(ms * 1000)} µs`;
  if (ms < 1000) return `${sig(ms)} ms`;
  if (ms < 60_000) return `${sig(ms / 1000)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}

/** A cost in USD: `$0.00042`, `$1.234`; nothing for none. */
export const fmtCost = (c) => (c ? `$${c.toFixed(c < 0.01 ? 5 : 3)}` : '');

/** `1 trace`, `3 traces`: a count with its noun. */
export const plural = (n, noun, many = `${noun}s`) => `${n} ${n === 1 ? noun : many}`;

/** A score's average, short. */
export const fmtScore = (v) => (typeof v === 'number' ? String(Number(v.toFixed(3))) : String(v));

/** Parses JSON text; anything that is not JSON stays as it is. */
export function parse(text) {
  if (text === null || text === undefined) return undefined;
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `#/route/part/part` of a route's parts, each encoded. */
export const link = (...parts) => `#/${parts.map((p) => encodeURIComponent(String(p))).join('/')}`;
