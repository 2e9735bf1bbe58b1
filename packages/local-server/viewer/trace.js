// One trace: the observation tree with its waterfall, the selected observation's details (the
// fields and sections of ./observation.js), the trace's scores, and its actions (Copy as JSON).
import { fmtCost, fmtDuration, getJson, h, link, plural } from './dom.js';
import { ACTIONS, FIELDS, SECTIONS } from './observation.js';

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
        `${traceId} · ${fmtDuration(t1 - t0)} · ${plural(observations.length, 'observation')}`,
        summary?.userId ? ` · user ${summary.userId}` : '',
        summary?.sessionId ? h('span', {}, ' · session ', h('a', { href: link('session', summary.sessionId) }, summary.sessionId)) : '',
        summary?.totalTokens ? ` · ${plural(summary.totalTokens, 'token')}` : '',
        summary?.totalCost ? h('span', { id: 'trace-cost' }, ` · ${fmtCost(summary.totalCost)}`) : '',
        ACTIONS.map((action) => [' · ', action(trace)]),
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
  const kv = FIELDS.map((field) => field(o)).filter(Boolean);
  return h(
    'div',
    { class: 'panel', id: 'detail' },
    h('h2', { style: { margin: '0 0 10px', fontSize: '16px' } }, h('span', { class: `type ${o.type}` }, o.type), o.name),
    h(
      'div',
      { class: 'kv' },
      kv.map(([k, v]) => [h('div', {}, k), h('div', {}, v)]),
    ),
    SECTIONS.map((section) => section(o)),
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
