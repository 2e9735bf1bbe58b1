// What the trace page shows of one observation, as lists a feature adds a line to: the fields
// of its key-value table (type, level, model, usage, cost, …), the sections below it (model
// parameters, input, output, metadata), and the trace's actions (Copy as JSON, Add to dataset).
// Each field is a function of the observation that answers [label, value] or nothing.
import { addToDatasetButton } from './dataset-from-trace.js';
import { fmtCost, fmtDuration, h, link } from './dom.js';
import { renderJson, renderValue } from './values.js';

const pairs = (obj, unit = '') =>
  Object.entries(obj)
    .map(([k, v]) => `${k} ${unit}${v}`)
    .join(', ');

/** An observation's cost: its total, by bucket, and where it came from. */
function costField(o) {
  const cost = o.cost;
  if (!cost || !(cost.total > 0)) return null;
  const details = Object.entries(cost.details ?? {})
    .map(([bucket, usd]) => `${bucket} ${fmtCost(usd)}`)
    .join(', ');
  const source = cost.source === 'sdk' ? 'as the SDK reported it' : `priced as ${cost.model} from the price table`;
  return [
    'cost',
    h(
      'span',
      { id: 'cost', title: source },
      fmtCost(cost.total),
      details ? h('span', { class: 'muted' }, ` (${details})`) : null,
      h('span', { class: 'muted' }, ` · ${source}`),
    ),
  ];
}

/** The key-value table's fields, in order. */
export const FIELDS = [
  (o) => ['type', o.type],
  (o) => ['level', o.level],
  (o) => (o.statusMessage ? ['status', o.statusMessage] : null),
  (o) => ['start', new Date(o.startTime).toISOString()],
  (o) => ['duration', h('span', { id: 'duration' }, fmtDuration(o.durationMs))],
  (o) => (o.model ? ['model', o.model] : null),
  (o) =>
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
  (o) => (o.usageDetails && typeof o.usageDetails === 'object' ? ['usage', pairs(o.usageDetails)] : null),
  costField,
  (o) => (mcpProcess(o) ? ['process', mcpProcess(o)] : null),
  (o) => (o.userId ? ['user', o.userId] : null),
  (o) => (o.sessionId ? ['session', o.sessionId] : null),
];

/**
 * The process that answered an MCP request, as `@obs/mcp` records it on the server's observation
 * (`metadata.mcp.process`, with the server's name): where a trace crosses into another process.
 */
export function mcpProcess(o) {
  const mcp = o.metadata?.mcp;
  if (typeof mcp?.process !== 'string') return null;
  return typeof mcp.server === 'string' ? `${mcp.server} · ${mcp.process}` : mcp.process;
}

/** The sections below the table, in order: each answers nodes or nothing. */
export const SECTIONS = [
  (o) => (o.modelParameters ? [h('h3', {}, 'Model parameters'), h('pre', {}, renderJson(o.modelParameters))] : null),
  (o) => [h('h3', {}, 'Input'), h('div', { id: 'input' }, renderValue(o.input))],
  (o) => [h('h3', {}, 'Output'), h('div', { id: 'output' }, renderValue(o.output))],
  (o) => (Object.keys(o.metadata ?? {}).length ? [h('h3', {}, 'Metadata'), h('pre', {}, renderJson(o.metadata))] : null),
];

/** The trace's actions in its header, each a function of the trace read answering a button. */
export const ACTIONS = [copyButton, addToDatasetButton];

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
