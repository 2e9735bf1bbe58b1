// Experiment runs, grouped by dataset (two or more runs of one open side by side), and the
// side-by-side comparison: per item the input and expected output once, each run's output and
// scores beside each other, and each run's average per evaluator.
import { fmtCost, fmtDate, fmtScore, getJson, h, head, link, plural } from './dom.js';
import { renderValue } from './values.js';

export async function showExperiments(app) {
  const { data } = await getJson('/viewer-api/experiments');
  if (data.length === 0) {
    app.replaceChildren(h('div', { class: 'empty' }, 'No experiment runs yet (spans with obs.experiment.* attributes).'));
    return;
  }
  const groups = new Map();
  for (const run of data) {
    const key = run.datasetId ?? '';
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push({ ...run, items: run.items.length });
  }
  app.replaceChildren(
    head(null, 'Experiment runs', h('div', { class: 'muted' }, plural(data.length, 'run'))),
    ...[...groups].map(([datasetId, runs]) => {
      const { compare, table } = runPicker(runs);
      return h(
        'section',
        { class: 'panel', style: { marginBottom: '16px' }, 'data-dataset-id': datasetId },
        h('h3', { style: { marginTop: 0 } }, datasetTitle(runs[0]), ' ', compare),
        table,
      );
    }),
  );
}

/** A group's title: its dataset by name (a link to it) when the server holds it, else by id. */
function datasetTitle(run) {
  if (run.datasetName) return ['Dataset ', h('a', { href: link('dataset', run.datasetName), class: 'dataset-name' }, run.datasetName)];
  return run.datasetId ? `Dataset ${run.datasetId}` : 'Without a dataset';
}

/**
 * Runs as a table, each with a box to tick, and a button that opens the ticked ones side by side
 * (`null` for a single run). Each run: `{ id, name, description?, items (a count), averages, start }`.
 */
export function runPicker(runs, tableId) {
  const chosen = new Set();
  const compare = h('button', { type: 'button', class: 'compare', disabled: true }, 'Compare selected runs');
  compare.addEventListener('click', () => (location.hash = link('compare', [...chosen].join(','))));
  const table = h(
    'table',
    { id: tableId },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['', 'Run', 'Items', 'Averages', 'Cost', 'Started'].map((c) => h('th', {}, c)),
      ),
    ),
    h(
      'tbody',
      {},
      runs.map((run) =>
        h(
          'tr',
          { 'data-run-id': run.id },
          h(
            'td',
            {},
            h('input', {
              type: 'checkbox',
              'data-run': run.id,
              onchange: (e) => {
                if (e.target.checked) chosen.add(run.id);
                else chosen.delete(run.id);
                compare.disabled = chosen.size < 2;
              },
            }),
          ),
          h(
            'td',
            {},
            h('a', { href: link('compare', run.id) }, run.name),
            run.description ? h('span', { class: 'muted' }, ` · ${run.description}`) : '',
          ),
          h('td', { class: 'num' }, run.items),
          h(
            'td',
            {},
            Object.entries(run.averages).map(([k, v]) => h('span', { class: 'score' }, `${k}: ${fmtScore(v)}`)),
          ),
          h('td', { class: 'num' }, fmtCost(run.cost)),
          h('td', { class: 'muted' }, fmtDate(run.start)),
        ),
      ),
    ),
  );
  return { compare: runs.length > 1 ? compare : null, table };
}

/** Runs `ids` (comma-separated) side by side. */
export async function showCompare(app, ids) {
  const { runs, evaluators, rows, missing } = await getJson(`/viewer-api/compare?runs=${encodeURIComponent(ids)}`);
  if (runs.length === 0) {
    app.replaceChildren(head(['#/experiments', 'experiment runs'], 'Compare runs'), h('div', { class: 'empty' }, `No run ${ids}.`));
    return;
  }
  const datasets = new Set(runs.map((r) => r.datasetId));
  const first = runs[0];
  app.replaceChildren(
    head(
      ['#/experiments', 'experiment runs'],
      runs.length === 1 ? first.name : `${runs.length} runs side by side`,
      h(
        'div',
        { class: 'muted', id: 'compare-summary' },
        plural(rows.length, 'item'),
        datasets.size === 1 && first.datasetName
          ? [' · dataset ', h('a', { href: link('dataset', first.datasetName), class: 'dataset-name' }, first.datasetName)]
          : datasets.size === 1 && first.datasetId
            ? ` · dataset ${first.datasetId}`
            : '',
        datasets.size > 1 ? ' · these runs are of different datasets' : '',
        missing.length ? ` · no run ${missing.join(', ')}` : '',
      ),
    ),
    h(
      'table',
      { id: 'averages' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'Evaluator'),
          runs.map((r) => h('th', {}, r.name)),
        ),
      ),
      h(
        'tbody',
        {},
        evaluators.map((name) =>
          h(
            'tr',
            { 'data-evaluator': name },
            h('td', {}, name),
            runs.map((r) => h('td', { class: 'num', 'data-run': r.id }, name in r.averages ? fmtScore(r.averages[name]) : '—')),
          ),
        ),
        h(
          'tr',
          { class: 'cost-row' },
          h('td', {}, 'cost'),
          runs.map((r) => h('td', { class: 'num', 'data-run': r.id }, fmtCost(r.cost) || '—')),
        ),
      ),
    ),
    h(
      'table',
      { id: 'comparison', class: 'grid-items' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'Input'),
          h('th', {}, 'Expected'),
          runs.map((r) => h('th', { 'data-run': r.id }, r.name)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((row) =>
          h(
            'tr',
            { 'data-item-id': row.itemId ?? '' },
            h('td', {}, renderValue(row.input)),
            h('td', {}, renderValue(row.expectedOutput)),
            runs.map((r) => {
              const result = row.results[r.id];
              if (!result) return h('td', { class: 'muted', 'data-run': r.id }, 'not in this run');
              return h(
                'td',
                { class: result.error ? 'cell error' : 'cell', 'data-run': r.id },
                renderValue(result.output),
                h(
                  'div',
                  { class: 'cell-scores' },
                  Object.entries(result.scores).map(([k, v]) => h('span', { class: 'score' }, `${k}: ${fmtScore(v)}`)),
                  result.cost ? h('span', { class: 'cost' }, fmtCost(result.cost)) : null,
                  h('a', { href: link('trace', result.traceId) }, 'trace'),
                ),
              );
            }),
          ),
        ),
      ),
    ),
  );
}
