/**
 * Text from traces and requests made safe for a terminal: a span name, a Host header or an
 * input may carry escape sequences (ANSI colours, OSC titles and links, a screen clear), carriage
 * returns that overwrite a line, line feeds that forge a line of their own, or Unicode's
 * bidirectional overrides that reorder one. Each such character is shown as a visible escape
 * instead (`\x1b`, `\r`, `\n`, `\u202e`), so what the server prints is only what it means to print.
 */

/** C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional marks and overrides. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * The text with every control character escaped.
 *
 * @param keepNewlines leave line feeds as they are (a stack the server prints on purpose)
 */
export function escapeControls(text: string, keepNewlines = false): string {
  return text.replace(CONTROLS, (c) => {
    if (keepNewlines && c === '\n') return c;
    const code = c.charCodeAt(0);
    return NAMED[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}

/** Whether the text holds a character {@link escapeControls} escapes (line feeds aside, when `newlinesAllowed`). */
export function hasControls(text: string, newlinesAllowed = false): boolean {
  CONTROLS.lastIndex = 0;
  const found = [...text.matchAll(CONTROLS)];
  return found.some(([c]) => !(newlinesAllowed && c === '\n'));
}
