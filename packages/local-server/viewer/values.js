// Rendering values: chat messages as messages (with their tool calls), JSON folded and pretty,
// text readable, media references shown from this server. Everything from a trace is text.
import { h, parse } from './dom.js';

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

export function renderMessages(messages) {
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

export function renderJson(value, depth = 0) {
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

export function renderValue(raw) {
  const value = parse(raw);
  if (value === undefined) return h('div', { class: 'muted' }, '—');
  const messages = messagesOf(value);
  if (messages) return renderMessages(messages);
  if (typeof value === 'string') return h('div', { class: 'text' }, withMedia(value));
  return h('pre', {}, renderJson(value));
}
