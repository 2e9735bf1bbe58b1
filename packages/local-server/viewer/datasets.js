// Datasets: the list, and one dataset's items at a version (now or as they were then), its
// versions, and its runs, two or more of which open side by side.
import { fmtDate, getJson, h, head, link, plural } from './dom.js';
import { runPicker } from './experiments.js';
import { renderValue } from './values.js';

export async function showDatasets(app) {
  const { data } = await getJson('/viewer-api/datasets');
  if (data.length === 0) {
    app.replaceChildren(h('div', { class: 'empty' }, 'No datasets yet (create one with the SDK: client.api.datasets.create).'));
    return;
  }
  app.replaceChildren(
    head(null, 'Datasets'),
    h(
      'table',
      { id: 'datasets' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Name', 'Description', 'Items', 'Runs', 'Created'].map((c) => h('th', {}, c)),
        ),
      ),
      h(
        'tbody',
        {},
        data.map((d) =>
          h(
            'tr',
            { class: 'row', 'data-dataset': d.name, onclick: () => (location.hash = link('dataset', d.name)) },
            h('td', {}, h('a', { href: link('dataset', d.name) }, d.name)),
            h('td', {}, d.description ?? ''),
            h('td', { class: 'num' }, d.items),
            h('td', { class: 'num' }, d.runs),
            h('td', { class: 'muted' }, fmtDate(d.createdAt)),
          ),
        ),
      ),
    ),
  );
}

/** Shows dataset `name` with its items at `version` (epoch ms; default: now). */
export async function showDataset(app, name, version) {
  const query = version ? `?version=${encodeURIComponent(version)}` : '';
  const view = await getJson(`/viewer-api/datasets/${encodeURIComponent(name)}${query}`);
  const { dataset, items, versions, runs } = view;
  const picker = runPicker(runs, 'dataset-runs');
  app.replaceChildren(
    head(
      ['#/datasets', 'datasets'],
      dataset.name,
      h('div', { class: 'muted' }, dataset.description ?? '', dataset.description ? ' · ' : '', `created ${fmtDate(dataset.createdAt)}`),
    ),
    h(
      'div',
      { class: 'filters' },
      h('label', {}, 'Version '),
      h(
        'select',
        {
          id: 'dataset-version',
          onchange: (e) => (location.hash = e.target.value ? link('dataset', name, e.target.value) : link('dataset', name)),
        },
        h('option', { value: '', selected: !version }, `latest (${plural(versions.length, 'version')})`),
        // To the millisecond: an item changed twice in one second makes two versions.
        [...versions]
          .reverse()
          .map((v) =>
            h(
              'option',
              { value: v, selected: String(v) === String(version) },
              `${fmtDate(v)}.${String(Math.floor(v) % 1000).padStart(3, '0')}`,
            ),
          ),
      ),
      h('span', { class: 'count', id: 'item-count' }, plural(items.length, 'item')),
    ),
    h(
      'table',
      { id: 'dataset-items', class: 'grid-items' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Id', 'Input', 'Expected output', 'Metadata', 'Status'].map((c) => h('th', {}, c)),
        ),
      ),
      h(
        'tbody',
        {},
        items.map((i) =>
          h(
            'tr',
            { 'data-item-id': i.id },
            h('td', { class: 'muted' }, i.id),
            h('td', {}, renderValue(i.input)),
            h('td', {}, renderValue(i.expectedOutput)),
            h('td', {}, i.metadata === null ? '' : renderValue(i.metadata)),
            h('td', {}, i.status),
          ),
        ),
      ),
    ),
    h('h3', {}, `Runs (${runs.length})`, ' ', picker.compare),
    runs.length === 0 ? h('div', { class: 'muted' }, 'No experiment has run on this dataset yet.') : picker.table,
  );
}
