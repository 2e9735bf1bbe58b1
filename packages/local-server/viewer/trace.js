// One trace: the observation tree with its waterfall, the selected observation's details (its
// prompt linked to the prompt's page), the trace's scores, a button that copies it as JSON, and
// one that adds it to a dataset as a test case.
import { addToDatasetButton } from './dataset-from-trace.js';
import { fmtDuration, getJson, h, link } from './dom.js';
import { renderJson, renderValue } from './values.js';

/** Shows trace `traceId` with observation `selectedId` (default: its root) selected. */
export async function showTrace(app, traceId, selectedId) {
  const trace = await getJson(`/viewer-api/traces/${encodeURIComponent(traceId)}`);
  const { summary, observations, scores } = trace;
  if (observations.length === 0) {
    app.replaceChildren(h('div', { class: 'empty' }, `Trace ${traceId} has no observations (yet).`));
    return;
  }
  const byId = new Map(observations.map((o) => [o.id, o]));
  const children = new Map();
  const roots = [];
  for (const o of observations) {
    if (o.parentObservationId && byId.has(o.parentObservationId)) {
      if (!children.has(o.parentObservationId)) children.set(o.parentObservationId, []);
      children.get(o.parentObservationId).push(o);
    } else roots.push(o);
  }
  // Times to the microsecond (startMs, durationMs), not the ISO strings' milliseconds.
  const t0 = Math.min(...observations.map((o) => o.startMs));
  const t1 = Math.max(...observations.map((o) => o.startMs + o.durationMs));
  const span = Math.max(t1 - t0, 0.001);
  const selected = byId.get(selectedId) ?? roots[0];
  const rows = [];
  const walk = (o, depth) => {
    const start = o.startMs - t0;
    rows.push(
      h(
        'div',
        {
          class: `tree-row lvl-${o.level}${o === selected ? ' selected' : ''}`,
          'data-observation-id': o.id,
          'data-depth': depth,
          onclick: () => (location.hash = link('trace', traceId, o.id)),
        },
        h('div', { class: 'tree-name', style: { paddingLeft: `${depth * 16}px` } }, h('span', { class: `type ${o.type}` }, o.type), o.name),
        h('div', { class: 'tree-duration num' }, fmtDuration(o.durationMs)),
        h(
          'div',
          { class: 'bar-track', title: `${fmtDuration(o.durationMs)} at +${fmtDuration(start)}` },
          h('div', {
            class: `bar ${o.type}${o.level === 'ERROR' ? ' error' : ''}`,
            style: { left: `${(start / span) * 100}%`, width: `${Math.max((o.durationMs / span) * 100, 0.4)}%` },
          }),
        ),
      ),
    );
    for (const c of children.get(o.id) ?? []) walk(c, depth + 1);
  };
  for (const r of roots) walk(r, 0);
  app.replaceChildren(
    h(
      'div',
      { class: 'trace-head' },
      h('a', { href: '#/' }, '← traces'),
      h('h2', {}, summary?.name ?? traceId),
      h(
        'div',
        { class: 'muted' },
        `${traceId} · ${fmtDuration(t1 - t0)} · ${observations.length} observations`,
        summary?.userId ? ` · user ${summary.userId}` : '',
        summary?.sessionId ? h('span', {}, ' · session ', h('a', { href: link('session', summary.sessionId) }, summary.sessionId)) : '',
        summary?.totalTokens ? ` · ${summary.totalTokens} tokens` : '',
        ' · ',
        copyButton(trace),
        ' ',
        addToDatasetButton(traceId, roots[0]),
      ),
      summary?.tags?.length
        ? h(
            'div',
            { style: { marginTop: '6px' } },
            summary.tags.map((t) => h('span', { class: 'tag' }, t)),
          )
        : null,
    ),
    h('div', { class: 'trace' }, h('div', { class: 'panel', id: 'tree' }, rows), detail(selected, scores)),
  );
}

/** The selected observation's panel. */
function detail(o, scores) {
  const usage = o.usageDetails;
  const cost = o.costDetails;
  const pairs = (obj, unit = '') =>
    Object.entries(obj)
      .map(([k, v]) => `${k} ${unit}${v}`)
      .join(', ');
  const kv = [
    ['type', o.type],
    ['level', o.level],
    o.statusMessage ? ['status', o.statusMessage] : null,
    ['start', new Date(o.startTime).toISOString()],
    ['duration', h('span', { id: 'duration' }, fmtDuration(o.durationMs))],
    o.model ? ['model', o.model] : null,
    o.promptName
      ? [
          'prompt',
          h(
            'a',
            { id: 'prompt-link', href: link('prompt', o.promptName, o.promptVersion ?? '') },
            `${o.promptName} v${o.promptVersion ?? '?'}`,
          ),
        ]
      : null,
    usage && typeof usage === 'object' ? ['usage', pairs(usage)] : null,
    cost && typeof cost === 'object' ? ['cost', pairs(cost, '$')] : null,
    o.userId ? ['user', o.userId] : null,
    o.sessionId ? ['session', o.sessionId] : null,
  ].filter(Boolean);
  return h(
    'div',
    { class: 'panel', id: 'detail' },
    h('h2', { style: { margin: '0 0 10px', fontSize: '16px' } }, h('span', { class: `type ${o.type}` }, o.type), o.name),
    h(
      'div',
      { class: 'kv' },
      kv.map(([k, v]) => [h('div', {}, k), h('div', {}, v)]),
    ),
    o.modelParameters ? [h('h3', {}, 'Model parameters'), h('pre', {}, renderJson(o.modelParameters))] : null,
    h('h3', {}, 'Input'),
    h('div', { id: 'input' }, renderValue(o.input)),
    h('h3', {}, 'Output'),
    h('div', { id: 'output' }, renderValue(o.output)),
    Object.keys(o.metadata ?? {}).length ? [h('h3', {}, 'Metadata'), h('pre', {}, renderJson(o.metadata))] : null,
    h('h3', {}, 'Scores'),
    scores.length === 0
      ? h('div', { class: 'muted' }, 'none')
      : h(
          'div',
          { id: 'scores' },
          scores.map((s) => h('span', { class: 'score', title: s.comment ?? '' }, `${s.name}: ${s.value}`)),
        ),
  );
}

/** A button that copies the trace (summary, observations, scores) as JSON. */
function copyButton(trace) {
  const button = h('button', { type: 'button', class: 'copy', id: 'copy-json' }, 'Copy as JSON');
  button.addEventListener('click', async () => {
    const text = JSON.stringify(trace, null, 2);
    try {
      // The clipboard API needs a secure context (localhost is one; a LAN address over http is not).
      if (navigator.clipboard) await navigator.clipboard.writeText(text);
      else copyBySelection(text);
      button.textContent = 'Copied';
    } catch {
      copyBySelection(text);
      button.textContent = 'Copied';
    }
    setTimeout(() => (button.textContent = 'Copy as JSON'), 1500);
  });
  return button;
}

function copyBySelection(text) {
  const area = h('textarea', { class: 'offscreen' }, text);
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}
