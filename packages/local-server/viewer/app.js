// The obs local trace viewer: plain DOM modules, no dependencies, served by @obs/local-server.
// Routes: #/ (traces), #/trace/<id>[/<observationId>], #/session/<id>, #/experiments,
// #/compare/<runId>,<runId>…, #/prompts, #/prompt/<name>[/<version>[/diff/<version>]],
// #/datasets, #/dataset/<name>[/<version>].
import { showDataset, showDatasets } from './datasets.js';
import { h } from './dom.js';
import { showCompare, showExperiments } from './experiments.js';
import { showList } from './list.js';
import { showPrompt, showPrompts } from './prompts.js';
import { showSession } from './session.js';
import { showTrace } from './trace.js';

const app = document.getElementById('app');
const live = document.getElementById('live');

/** The nav entry each route belongs to. */
const SECTIONS = {
  experiments: 'experiments',
  compare: 'experiments',
  prompts: 'prompts',
  prompt: 'prompts',
  datasets: 'datasets',
  dataset: 'datasets',
};

const route = () => location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);

let renderTimer;
function scheduleRender() {
  clearTimeout(renderTimer);
  renderTimer = setTimeout(render, 120);
}

async function render() {
  const [page, a, b, c, d] = route();
  for (const link of document.querySelectorAll('nav a')) link.classList.toggle('active', link.dataset.nav === (SECTIONS[page] ?? 'traces'));
  try {
    if (page === 'trace' && a) await showTrace(app, a, b);
    else if (page === 'session' && a) await showSession(app, a);
    else if (page === 'experiments') await showExperiments(app);
    else if (page === 'compare' && a) await showCompare(app, a);
    else if (page === 'prompts') await showPrompts(app);
    else if (page === 'prompt' && a) await showPrompt(app, a, b, c === 'diff' ? d : undefined);
    else if (page === 'datasets') await showDatasets(app);
    else if (page === 'dataset' && a) await showDataset(app, a, b);
    else await showList(app, scheduleRender);
  } catch (err) {
    app.replaceChildren(h('div', { class: 'empty' }, `Could not load: ${err.message}`));
  }
}

window.addEventListener('hashchange', render);
render();

// New spans: the list and the experiment pages read again (filters apply); an open trace reads
// again when it is the one that changed; prompt and dataset pages stay as they are (their forms).
const events = new EventSource('/viewer-api/events');
events.addEventListener('open', () => live.classList.add('on'));
events.addEventListener('error', () => live.classList.remove('on'));
events.addEventListener('traces', (e) => {
  const changed = JSON.parse(e.data).map((t) => t.id);
  const [page, id] = route();
  if (page === 'trace' && !changed.includes(id)) return;
  if (['session', 'prompts', 'prompt', 'datasets', 'dataset'].includes(page)) return;
  scheduleRender();
});
