// The trace list: newest first, live, with filters and full-text search in its filter bar.
import { fmtCost, fmtDuration, fmtTime, getJson, h, link } from './dom.js';

const filters = { q: '', name: '', user: '', session: '', tag: '', errors: false };

/** Shows the list in `app`; `rerender` is called (debounced by the caller) when a filter changes. */
export async function showList(app, rerender) {
  const params = new URLSearchParams();
  for (const key of ['q', 'name', 'user', 'session', 'tag']) if (filters[key]) params.set(key, filters[key]);
  if (filters.errors) params.set('errors', '1');
  const { data, total } = await getJson(`/viewer-api/traces?${params}`);
  const input = (key, placeholder, cls) =>
    h('input', {
      type: key === 'q' ? 'search' : 'text',
      class: cls,
      placeholder,
      value: filters[key],
      'data-filter': key,
      oninput: (e) => {
        filters[key] = e.target.value.trim();
        rerender();
      },
    });
  const rows = data.map((t) =>
    h(
      'tr',
      { class: `row${t.error ? ' error' : ''}`, 'data-trace-id': t.id, onclick: () => (location.hash = link('trace', t.id)) },
      h('td', {}, h('span', { class: `status${t.error ? ' error' : ''}`, title: t.error ? 'error' : 'ok' })),
      h('td', { class: 'trace-name', title: t.name }, t.name),
      h('td', {}, t.userId ?? ''),
      h('td', {}, t.sessionId ? h('a', { href: link('session', t.sessionId), onclick: (e) => e.stopPropagation() }, t.sessionId) : ''),
      h(
        'td',
        {},
        t.tags.map((tag) => h('span', { class: 'tag' }, tag)),
      ),
      h('td', { class: 'muted' }, fmtTime(t.start)),
      h('td', { class: 'num' }, fmtDuration(t.end - t.start)),
      h('td', { class: 'num' }, t.observations),
      h('td', { class: 'num' }, t.totalTokens || ''),
      h('td', { class: 'num' }, fmtCost(t.totalCost)),
    ),
  );
  const searching = Object.entries(filters).some(([, v]) => v);
  const focused = document.activeElement?.dataset?.filter;
  app.replaceChildren(
    h(
      'div',
      { class: 'filters', 'data-q': params.get('q') ?? '' },
      input('q', 'search names, inputs, outputs, metadata', 'search'),
      input('name', 'name'),
      input('user', 'user id'),
      input('session', 'session id'),
      input('tag', 'tag'),
      h(
        'label',
        {},
        h('input', {
          type: 'checkbox',
          'data-filter': 'errors',
          checked: filters.errors,
          onchange: (e) => {
            filters.errors = e.target.checked;
            rerender();
          },
        }),
        'errors only',
      ),
      h('span', { class: 'count', id: 'trace-count' }, `${total} trace${total === 1 ? '' : 's'}`),
    ),
    data.length === 0
      ? h(
          'div',
          { class: 'empty' },
          searching ? 'No trace matches.' : 'No traces yet. Point an app at this server (OBS_BASE_URL) and make a request.',
        )
      : h(
          'table',
          { id: 'traces' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['', 'Name', 'User', 'Session', 'Tags', 'Start', 'Duration', 'Obs.', 'Tokens', 'Cost'].map((c) => h('th', {}, c)),
            ),
          ),
          h('tbody', {}, rows),
        ),
  );
  if (focused) {
    const el = app.querySelector(`[data-filter="${focused}"]`);
    el?.focus();
    if (el?.type === 'text' || el?.type === 'search') el.setSelectionRange(el.value.length, el.value.length);
  }
}
