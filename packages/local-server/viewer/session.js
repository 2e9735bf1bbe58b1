// A session as a conversation: its traces in order, each root's input and output.
import { fmtCost, fmtTime, getJson, h, head, link, plural } from './dom.js';
import { renderValue } from './values.js';

export async function showSession(app, sessionId) {
  const { traces } = await getJson(`/viewer-api/sessions/${encodeURIComponent(sessionId)}`);
  const cost = traces.reduce((sum, t) => sum + (t.totalCost ?? 0), 0);
  app.replaceChildren(
    head(
      ['#/', 'traces'],
      `Session ${sessionId}`,
      h('div', { class: 'muted', id: 'session-summary' }, plural(traces.length, 'trace'), cost ? ` · ${fmtCost(cost)}` : ''),
    ),
    h(
      'div',
      { class: 'conversation' },
      traces.map((t) =>
        h(
          'div',
          { class: 'turn', 'data-trace-id': t.id },
          h(
            'div',
            { class: 'meta' },
            fmtTime(t.start),
            ' · ',
            h('a', { href: link('trace', t.id) }, t.name),
            t.totalCost ? h('span', { class: 'cost' }, ` · ${fmtCost(t.totalCost)}`) : '',
            t.error ? ' · error' : '',
          ),
          h('div', { class: 'msg user' }, h('div', { class: 'role' }, 'input'), renderValue(t.input)),
          h('div', { class: 'msg assistant' }, h('div', { class: 'role' }, 'output'), renderValue(t.output)),
        ),
      ),
    ),
  );
}
