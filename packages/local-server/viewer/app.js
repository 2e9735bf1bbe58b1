// The obs local trace viewer: plain DOM, no dependencies, served by @obs/local-server.
// Routes: #/ (trace list), #/trace/<id>[/<observationId>], #/session/<id>, #/experiments.

const app = document.getElementById('app');
const live = document.getElementById('live');

/** Creates an element: h('div', { class: 'x', onclick }, child, 'text', ...). */
function h(tag, attrs, ...children) {
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

async function getJson(path) {
  const res = await fetch(path, { cache: 'no-store' });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.json();
}

const fmtTime = (ms) => `${new Date(ms).toLocaleTimeString(undefined, { hour12: false })}.${String(ms % 1000).padStart(3, '0')}`;
const fmtDuration = (ms) =>
  ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : ms < 1000 ? `${ms.toFixed(ms < 10 ? 1 : 0)} ms` : `${(ms / 1000).toFixed(2)} s`;
const fmtCost = (c) => (c ? `$${c.toFixed(c < 0.01 ? 5 : 3)}` : '');

function parse(text) {
  if (text === null || text === undefined) return undefined;
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering values: chat messages as messages, JSON folded and pretty, text readable.

function isMessage(m) {
  return m && typeof m === 'object' && typeof m.role === 'string' && ('content' in m || 'tool_calls' in m);
}

function messagesOf(value) {
  if (Array.isArray(value) && value.length > 0 && value.every(isMessage)) return value;
  if (isMessage(value)) return [value];
  if (value && typeof value === 'object' && Array.isArray(value.messages) && value.messages.every(isMessage)) return value.messages;
  return undefined;
}

// Media the SDK uploaded stands in the trace as `@@@obsMedia:type=<mime>|id=<id>|source=<source>@@@`:
// shown from this server (an image, an audio player, or a download link), never as HTML.
const MEDIA_REFERENCE = /@@@obsMedia:(.+?)@@@/g;

function mediaReference(inner) {
  const fields = {};
  for (const pair of inner.split('|')) {
    const eq = pair.indexOf('=');
    if (eq > 0) fields[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return fields.id ? { id: fields.id, type: (fields.type ?? 'application/octet-stream').toLowerCase() } : undefined;
}

function renderMedia(ref) {
  const src = `/viewer-api/media/${encodeURIComponent(ref.id)}`;
  const label = `${ref.type} · ${ref.id}`;
  if (ref.type.startsWith('image/')) return h('img', { class: 'media', src, alt: label, title: label, 'data-media-id': ref.id });
  if (ref.type.startsWith('audio/')) return h('audio', { class: 'media', src, controls: true, title: label, 'data-media-id': ref.id });
  return h('a', { class: 'media media-file', href: src, download: ref.id, 'data-media-id': ref.id }, `⤓ ${label}`);
}

/** A string as text, with each media reference in it shown as the media; the string itself when it has none. */
function withMedia(text) {
  const parts = [];
  let last = 0;
  for (const m of text.matchAll(MEDIA_REFERENCE)) {
    const ref = mediaReference(m[1]);
    if (!ref) continue;
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push(renderMedia(ref));
    last = m.index + m[0].length;
  }
  if (parts.length === 0) return text;
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** Just the media of a value that holds references (a content part like `{ type: 'image_url', image_url: { url } }`). */
function mediaOnly(value) {
  const found = [...JSON.stringify(value).matchAll(MEDIA_REFERENCE)].map((m) => mediaReference(m[1])).filter(Boolean);
  return found.length ? found.map(renderMedia) : undefined;
}

function contentNodes(content) {
  if (typeof content === 'string') return withMedia(content);
  if (Array.isArray(content))
    return content.map((p) =>
      typeof p === 'string' ? withMedia(p) : typeof p?.text === 'string' ? withMedia(p.text) : (mediaOnly(p) ?? JSON.stringify(p)),
    );
  return mediaOnly(content) ?? JSON.stringify(content, null, 2);
}

function renderMessages(messages) {
  return h(
    'div',
    { class: 'messages' },
    messages.map((m) =>
      h(
        'div',
        { class: `msg ${m.role}`, 'data-role': m.role },
        h('div', { class: 'role' }, m.role + (m.name ? ` · ${m.name}` : '') + (m.tool_call_id ? ` · ${m.tool_call_id}` : '')),
        m.content !== undefined && m.content !== '' ? h('div', { class: 'content' }, contentNodes(m.content)) : null,
        (m.tool_calls ?? []).map((c) =>
          h(
            'div',
            { class: 'tool-call' },
            `→ ${c.name ?? c.function?.name ?? 'tool'}(${JSON.stringify(c.args ?? c.arguments ?? c.function?.arguments ?? {})})`,
          ),
        ),
      ),
    ),
  );
}

function renderJson(value, depth = 0) {
  if (typeof value === 'string') {
    const parts = withMedia(value);
    return h('span', { class: 'json-str' }, typeof parts === 'string' ? JSON.stringify(value) : ['"', parts, '"']);
  }
  if (value === null || typeof value !== 'object') return h('span', { class: 'json-num' }, JSON.stringify(value));
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const open = depth < 2 && entries.length <= 30;
  const label = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return h(
    'details',
    { open },
    h('summary', {}, label),
    h(
      'div',
      { style: { paddingLeft: '14px' } },
      entries.map(([k, v]) =>
        h('div', {}, h('span', { class: 'json-key' }, Array.isArray(value) ? '' : `${k}: `), renderJson(v, depth + 1)),
      ),
    ),
  );
}

function renderValue(raw) {
  const value = parse(raw);
  if (value === undefined) return h('div', { class: 'muted' }, '—');
  const messages = messagesOf(value);
  if (messages) return renderMessages(messages);
  if (typeof value === 'string') return h('div', { class: 'text' }, withMedia(value));
  return h('pre', {}, renderJson(value));
}

// ---------------------------------------------------------------------------------------------
// Trace list.

const filters = { name: '', user: '', session: '', tag: '', errors: false };

async function showList() {
  const params = new URLSearchParams();
  for (const key of ['name', 'user', 'session', 'tag']) if (filters[key]) params.set(key, filters[key]);
  if (filters.errors) params.set('errors', '1');
  const { data, total } = await getJson(`/viewer-api/traces?${params}`);
  const input = (key, placeholder) =>
    h('input', {
      type: 'text',
      placeholder,
      value: filters[key],
      'data-filter': key,
      oninput: (e) => {
        filters[key] = e.target.value.trim();
        scheduleRender();
      },
    });
  const rows = data.map((t) =>
    h(
      'tr',
      { class: `row${t.error ? ' error' : ''}`, 'data-trace-id': t.id, onclick: () => (location.hash = `#/trace/${t.id}`) },
      h('td', {}, h('span', { class: `status${t.error ? ' error' : ''}`, title: t.error ? 'error' : 'ok' })),
      h('td', { class: 'trace-name', title: t.name }, t.name),
      h('td', {}, t.userId ?? ''),
      h(
        'td',
        {},
        t.sessionId
          ? h('a', { href: `#/session/${encodeURIComponent(t.sessionId)}`, onclick: (e) => e.stopPropagation() }, t.sessionId)
          : '',
      ),
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
  const focused = document.activeElement?.dataset?.filter;
  app.replaceChildren(
    h(
      'div',
      { class: 'filters' },
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
            scheduleRender();
          },
        }),
        'errors only',
      ),
      h('span', { class: 'count', id: 'trace-count' }, `${total} trace${total === 1 ? '' : 's'}`),
    ),
    data.length === 0
      ? h('div', { class: 'empty' }, 'No traces yet. Point an app at this server (OBS_BASE_URL) and make a request.')
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
    if (el?.type === 'text') el.setSelectionRange(el.value.length, el.value.length);
  }
}

// ---------------------------------------------------------------------------------------------
// One trace: tree with waterfall, details of the selected observation, scores.

async function showTrace(traceId, selectedId) {
  const { summary, observations, scores } = await getJson(`/viewer-api/traces/${traceId}`);
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
  const t0 = Math.min(...observations.map((o) => Date.parse(o.startTime)));
  const t1 = Math.max(...observations.map((o) => Date.parse(o.endTime)));
  const span = Math.max(t1 - t0, 1);
  const selected = byId.get(selectedId) ?? roots[0];
  const rows = [];
  const walk = (o, depth) => {
    const start = Date.parse(o.startTime) - t0;
    const dur = Date.parse(o.endTime) - Date.parse(o.startTime);
    rows.push(
      h(
        'div',
        {
          class: `tree-row lvl-${o.level}${o === selected ? ' selected' : ''}`,
          'data-observation-id': o.id,
          'data-depth': depth,
          onclick: () => (location.hash = `#/trace/${traceId}/${o.id}`),
        },
        h('div', { class: 'tree-name', style: { paddingLeft: `${depth * 16}px` } }, h('span', { class: `type ${o.type}` }, o.type), o.name),
        h(
          'div',
          { class: 'bar-track', title: `${fmtDuration(dur)} at +${fmtDuration(start)}` },
          h('div', {
            class: `bar ${o.type}${o.level === 'ERROR' ? ' error' : ''}`,
            style: { left: `${(start / span) * 100}%`, width: `${Math.max((dur / span) * 100, 0.4)}%` },
          }),
        ),
      ),
    );
    for (const c of children.get(o.id) ?? []) walk(c, depth + 1);
  };
  for (const r of roots) walk(r, 0);
  const usage = selected.usageDetails;
  const cost = selected.costDetails;
  const kv = [
    ['type', selected.type],
    ['level', selected.level],
    selected.statusMessage ? ['status', selected.statusMessage] : null,
    ['start', new Date(selected.startTime).toISOString()],
    ['duration', fmtDuration(Date.parse(selected.endTime) - Date.parse(selected.startTime))],
    selected.model ? ['model', selected.model] : null,
    selected.promptName ? ['prompt', `${selected.promptName} v${selected.promptVersion ?? '?'}`] : null,
    usage
      ? [
          'usage',
          Object.entries(usage)
            .map(([k, v]) => `${k} ${v}`)
            .join(', '),
        ]
      : null,
    cost
      ? [
          'cost',
          Object.entries(cost)
            .map(([k, v]) => `${k} $${v}`)
            .join(', '),
        ]
      : null,
    selected.userId ? ['user', selected.userId] : null,
    selected.sessionId ? ['session', selected.sessionId] : null,
  ].filter(Boolean);
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
        summary?.sessionId
          ? h('span', {}, ' · session ', h('a', { href: `#/session/${encodeURIComponent(summary.sessionId)}` }, summary.sessionId))
          : '',
        summary?.totalTokens ? ` · ${summary.totalTokens} tokens` : '',
      ),
      summary?.tags?.length
        ? h(
            'div',
            { style: { marginTop: '6px' } },
            summary.tags.map((t) => h('span', { class: 'tag' }, t)),
          )
        : null,
    ),
    h(
      'div',
      { class: 'trace' },
      h('div', { class: 'panel', id: 'tree' }, rows),
      h(
        'div',
        { class: 'panel', id: 'detail' },
        h(
          'h2',
          { style: { margin: '0 0 10px', fontSize: '16px' } },
          h('span', { class: `type ${selected.type}` }, selected.type),
          selected.name,
        ),
        h(
          'div',
          { class: 'kv' },
          kv.map(([k, v]) => [h('div', {}, k), h('div', {}, v)]),
        ),
        selected.modelParameters ? [h('h3', {}, 'Model parameters'), h('pre', {}, renderJson(selected.modelParameters))] : null,
        h('h3', {}, 'Input'),
        h('div', { id: 'input' }, renderValue(selected.input)),
        h('h3', {}, 'Output'),
        h('div', { id: 'output' }, renderValue(selected.output)),
        Object.keys(selected.metadata ?? {}).length ? [h('h3', {}, 'Metadata'), h('pre', {}, renderJson(selected.metadata))] : null,
        h('h3', {}, 'Scores'),
        scores.length === 0
          ? h('div', { class: 'muted' }, 'none')
          : h(
              'div',
              { id: 'scores' },
              scores.map((s) => h('span', { class: 'score', title: s.comment ?? '' }, `${s.name}: ${s.value}`)),
            ),
      ),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// A session as a conversation; experiments.

async function showSession(sessionId) {
  const { traces } = await getJson(`/viewer-api/sessions/${encodeURIComponent(sessionId)}`);
  app.replaceChildren(
    h(
      'div',
      { class: 'trace-head' },
      h('a', { href: '#/' }, '← traces'),
      h('h2', {}, `Session ${sessionId}`),
      h('div', { class: 'muted' }, `${traces.length} traces`),
    ),
    h(
      'div',
      { class: 'conversation' },
      traces.map((t) =>
        h(
          'div',
          { class: 'turn', 'data-trace-id': t.id },
          h('div', { class: 'meta' }, fmtTime(t.start), ' · ', h('a', { href: `#/trace/${t.id}` }, t.name), t.error ? ' · error' : ''),
          h('div', { class: 'msg user' }, h('div', { class: 'role' }, 'input'), renderValue(t.input)),
          h('div', { class: 'msg assistant' }, h('div', { class: 'role' }, 'output'), renderValue(t.output)),
        ),
      ),
    ),
  );
}

async function showExperiments() {
  const { data } = await getJson('/viewer-api/experiments');
  if (data.length === 0) {
    app.replaceChildren(h('div', { class: 'empty' }, 'No experiment runs yet (spans with obs.experiment.* attributes).'));
    return;
  }
  app.replaceChildren(
    ...data.map((run) =>
      h(
        'section',
        { class: 'panel', style: { marginBottom: '16px' }, 'data-experiment-id': run.id },
        h('h2', { style: { margin: '0 0 4px', fontSize: '16px' } }, run.name),
        h(
          'div',
          { class: 'muted' },
          `${run.items.length} items`,
          run.datasetId ? ` · dataset ${run.datasetId}` : '',
          run.description ? ` · ${run.description}` : '',
        ),
        h(
          'div',
          { style: { margin: '8px 0' } },
          Object.entries(run.averages).map(([k, v]) => h('span', { class: 'score' }, `${k}: ${v.toFixed(3)}`)),
        ),
        h(
          'table',
          { class: 'grid-items' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Input', 'Expected', 'Output', 'Scores', ''].map((c) => h('th', {}, c)),
            ),
          ),
          h(
            'tbody',
            {},
            run.items.map((it) =>
              h(
                'tr',
                { class: it.error ? 'error' : '' },
                h('td', {}, renderValue(it.input)),
                h('td', {}, renderValue(it.expectedOutput)),
                h('td', {}, renderValue(it.output)),
                h(
                  'td',
                  {},
                  Object.entries(it.scores).map(([k, v]) => h('div', {}, `${k}: ${v}`)),
                ),
                h('td', {}, h('a', { href: `#/trace/${it.traceId}` }, 'trace')),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Routing and live updates.

let renderTimer;
function scheduleRender() {
  clearTimeout(renderTimer);
  renderTimer = setTimeout(render, 120);
}

async function render() {
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  for (const a of document.querySelectorAll('nav a'))
    a.classList.toggle('active', a.dataset.nav === (parts[0] === 'experiments' ? 'experiments' : 'traces'));
  try {
    if (parts[0] === 'trace' && parts[1]) await showTrace(parts[1], parts[2]);
    else if (parts[0] === 'session' && parts[1]) await showSession(parts[1]);
    else if (parts[0] === 'experiments') await showExperiments();
    else await showList();
  } catch (err) {
    app.replaceChildren(h('div', { class: 'empty' }, `Could not load: ${err.message}`));
  }
}

window.addEventListener('hashchange', render);
render();

// New spans: the list re-reads (filters apply); an open trace re-reads when it is the one that changed.
const events = new EventSource('/viewer-api/events');
events.addEventListener('open', () => live.classList.add('on'));
events.addEventListener('error', () => live.classList.remove('on'));
events.addEventListener('traces', (e) => {
  const changed = JSON.parse(e.data).map((t) => t.id);
  const parts = location.hash.replace(/^#\/?/, '').split('/');
  if (parts[0] === 'trace' && !changed.includes(parts[1])) return;
  if (document.activeElement?.dataset?.filter && parts[0] !== 'trace') return scheduleRender();
  scheduleRender();
});
