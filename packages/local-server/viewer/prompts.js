// Prompts: the list (latest version, labels), and one prompt's versions with labels, content,
// config, a diff between two versions, and the generations that used it.
import { diffLines } from './diff.js';
import { fmtDate, getJson, h, head, link, plural } from './dom.js';
import { renderJson, renderMessages } from './values.js';

export async function showPrompts(app) {
  const { data } = await getJson('/viewer-api/prompts');
  if (data.length === 0) {
    app.replaceChildren(h('div', { class: 'empty' }, 'No prompts yet (create one with the SDK: client.prompt.create).'));
    return;
  }
  app.replaceChildren(
    head(null, 'Prompts'),
    h(
      'table',
      { id: 'prompts' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Name', 'Type', 'Versions', 'Labels', 'Tags', 'Updated'].map((c) => h('th', {}, c)),
        ),
      ),
      h(
        'tbody',
        {},
        data.map((p) =>
          h(
            'tr',
            { class: 'row', 'data-prompt': p.name, onclick: () => (location.hash = link('prompt', p.name)) },
            h('td', {}, h('a', { href: link('prompt', p.name) }, p.name)),
            h('td', {}, p.type),
            h('td', { class: 'num' }, p.versions),
            h('td', {}, labels(p.labels)),
            h(
              'td',
              {},
              p.tags.map((t) => h('span', { class: 'tag' }, t)),
            ),
            h('td', { class: 'muted' }, fmtDate(p.updatedAt)),
          ),
        ),
      ),
    ),
  );
}

/** Label chips, `label v2` each. */
const labels = (map) => Object.entries(map).map(([label, version]) => h('span', { class: 'label' }, `${label} v${version}`));

/** A version's content as text (a chat prompt: one `role: content` block per message). */
const asText = (p) =>
  typeof p.prompt === 'string' ? p.prompt : p.prompt.map((m) => `${m.role ?? m.type}: ${m.content ?? m.name ?? ''}`).join('\n');

/** Shows prompt `name` at `version` (default: the newest), compared with `against` when given. */
export async function showPrompt(app, name, version, against) {
  const { versions, uses, totalUses } = await getJson(`/viewer-api/prompts/${encodeURIComponent(name)}`);
  if (versions.length === 0) {
    app.replaceChildren(head(['#/prompts', 'prompts'], name), h('div', { class: 'empty' }, `No prompt named ${name}.`));
    return;
  }
  const current = versions.find((v) => String(v.version) === String(version)) ?? versions[versions.length - 1];
  const other = versions.find((v) => String(v.version) === String(against));
  const pick = (selected, onchange, id) =>
    h(
      'select',
      { id, onchange },
      versions.map((v) =>
        h('option', { value: v.version, selected: v === selected }, `v${v.version}${v.labels.length ? ` (${v.labels.join(', ')})` : ''}`),
      ),
    );
  const previous = versions[versions.indexOf(current) - 1];
  app.replaceChildren(
    head(
      ['#/prompts', 'prompts'],
      name,
      h(
        'div',
        { class: 'muted' },
        `${current.type} prompt · ${plural(versions.length, 'version')} · used by ${plural(totalUses, 'observation')}`,
      ),
    ),
    h(
      'div',
      { class: 'columns' },
      h(
        'div',
        { class: 'panel', id: 'versions' },
        h('h3', {}, 'Versions'),
        [...versions].reverse().map((v) =>
          h(
            'a',
            { class: `version${v === current ? ' selected' : ''}`, href: link('prompt', name, v.version), 'data-version': v.version },
            h(
              'div',
              {},
              h('b', {}, `v${v.version}`),
              ' ',
              v.labels.map((l) => h('span', { class: 'label' }, l)),
            ),
            h('div', { class: 'muted' }, fmtDate(v.createdAt), v.commitMessage ? ` · ${v.commitMessage}` : ''),
          ),
        ),
      ),
      h(
        'div',
        { class: 'panel', id: 'prompt-version' },
        h(
          'h3',
          {},
          `Version ${current.version}`,
          ' ',
          current.labels.map((l) => h('span', { class: 'label' }, l)),
        ),
        current.tags.length
          ? h(
              'div',
              {},
              current.tags.map((t) => h('span', { class: 'tag' }, t)),
            )
          : null,
        h(
          'div',
          { id: 'prompt-content' },
          typeof current.prompt === 'string'
            ? h('div', { class: 'text' }, current.prompt)
            : renderMessages(current.prompt.map(chatMessage)),
        ),
        current.config && Object.keys(current.config).length ? [h('h3', {}, 'Config'), h('pre', {}, renderJson(current.config))] : null,
        h(
          'h3',
          {},
          'Compare with ',
          pick(other ?? previous, (e) => (location.hash = link('prompt', name, current.version, 'diff', e.target.value)), 'diff-against'),
        ),
        other || previous ? diffView(other ?? previous, current) : h('div', { class: 'muted' }, 'the first version'),
      ),
    ),
    h('h3', {}, `Used by (${totalUses})`),
    uses.length === 0
      ? h('div', { class: 'muted' }, 'No observation used this prompt yet.')
      : h(
          'table',
          { id: 'prompt-uses' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Observation', 'Version', 'Model', 'Start'].map((c) => h('th', {}, c)),
            ),
          ),
          h(
            'tbody',
            {},
            uses.map((u) =>
              h(
                'tr',
                {
                  class: 'row',
                  'data-observation-id': u.observationId,
                  onclick: () => (location.hash = link('trace', u.traceId, u.observationId)),
                },
                h('td', {}, h('a', { href: link('trace', u.traceId, u.observationId) }, u.name)),
                h('td', {}, u.version === null ? '' : `v${u.version}`),
                h('td', {}, u.model ?? ''),
                h('td', { class: 'muted' }, fmtDate(u.start)),
              ),
            ),
          ),
        ),
  );
}

/** A stored chat message (or placeholder) as the message renderer reads it. */
const chatMessage = (m) =>
  m.type === 'placeholder' ? { role: 'placeholder', content: `{{${m.name}}}` } : { role: m.role, content: m.content };

/** The line diff from version `a` to `b`. */
function diffView(a, b) {
  return h(
    'div',
    { id: 'prompt-diff', class: 'diff' },
    h('div', { class: 'muted' }, `v${a.version} → v${b.version}`),
    diffLines(asText(a), asText(b)).map(([op, line]) =>
      h('div', { class: op === '+' ? 'added' : op === '-' ? 'removed' : 'same' }, `${op} ${line}`),
    ),
  );
}
