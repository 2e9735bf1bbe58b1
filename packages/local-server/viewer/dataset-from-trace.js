// "Add to dataset" on a trace: its root's input and, as the expected output, its root's output,
// which you correct before saving when the trace's answer was wrong. The item is linked to the
// trace (`sourceTraceId`); the next run on that dataset (`describeEval({ data: { dataset } })`,
// `dataset.runExperiment`) includes it. A dataset that does not exist yet is made.
import { getJson, h, link, parse } from './dom.js';
import { renderValue } from './values.js';

/** The trace's root: its observation without a parent in it (the earliest, for a continued trace). */
function rootOf(observations) {
  const ids = new Set(observations.map((o) => o.id));
  return observations.filter((o) => !o.parentObservationId || !ids.has(o.parentObservationId)).sort((a, b) => a.startMs - b.startMs)[0];
}

/** A trace action (./observation.js): the button, and the form it opens below the trace's header. */
export function addToDatasetButton(trace) {
  const traceId = trace.summary?.id ?? trace.observations[0]?.traceId;
  const root = rootOf(trace.observations);
  const button = h('button', { type: 'button', id: 'add-to-dataset' }, 'Add to dataset');
  button.addEventListener('click', async () => {
    const open = document.getElementById('dataset-item-form');
    if (open) return open.remove();
    const { data } = await getJson('/viewer-api/datasets').catch(() => ({ data: [] }));
    button.closest('.trace-head')?.after(form(traceId, root, data));
  });
  return button;
}

/** The page's own look for a text field (the stylesheet styles only its search boxes). */
const FIELD = {
  background: 'var(--panel)',
  color: 'var(--text)',
  border: '1px solid var(--line)',
  borderRadius: '6px',
  padding: '6px 8px',
};

function form(traceId, root, datasets) {
  const output = parse(root?.output);
  const names = h(
    'datalist',
    { id: 'dataset-names' },
    datasets.map((d) => h('option', { value: d.name })),
  );
  const dataset = h('input', {
    type: 'text',
    id: 'dataset-name',
    list: 'dataset-names',
    placeholder: 'dataset name (a new one is made)',
    value: localStorage.getItem('obs-viewer-dataset') ?? datasets[0]?.name ?? '',
    style: { ...FIELD, width: '320px', font: 'inherit' },
  });
  const expected = h(
    'textarea',
    {
      id: 'expected-output',
      rows: 6,
      spellcheck: 'false',
      style: { ...FIELD, width: '100%', boxSizing: 'border-box', fontFamily: 'monospace' },
    },
    output === undefined ? '' : typeof output === 'string' ? output : JSON.stringify(output, null, 2),
  );
  const status = h('span', { id: 'dataset-item-status', class: 'muted' });
  const save = h('button', { type: 'submit', id: 'save-dataset-item' }, 'Save item');
  const panel = h(
    'form',
    { class: 'panel', id: 'dataset-item-form', style: { marginBottom: '12px' } },
    h('h3', {}, 'Add this trace to a dataset'),
    h('div', {}, h('label', { for: 'dataset-name' }, 'Dataset '), dataset, names),
    h('h3', {}, 'Input'),
    h('div', {}, renderValue(root?.input)),
    h('h3', {}, 'Expected output (JSON, or plain text)'),
    expected,
    h('div', { style: { marginTop: '8px' } }, save, ' ', status),
  );
  panel.addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = dataset.value.trim();
    if (!name) return void (status.textContent = 'Name the dataset first.');
    save.disabled = true;
    status.textContent = 'Saving…';
    try {
      const res = await fetch(`/viewer-api/traces/${encodeURIComponent(traceId)}/dataset-item`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ datasetName: name, expectedOutput: parse(expected.value) }),
      });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(body.message ?? `HTTP ${res.status}`);
      localStorage.setItem('obs-viewer-dataset', name);
      status.replaceChildren(
        'Saved as item ',
        h('code', { id: 'dataset-item-id' }, body.id),
        ' of ',
        h('a', { href: link('dataset', name) }, name),
      );
    } catch (err) {
      status.textContent = `Not saved: ${err.message}`;
    } finally {
      save.disabled = false;
    }
  });
  return panel;
}
