/** `{{variable}}` templates of obs prompts: compiling them, and rewriting them for LangChain's f-string templates. */

const VARIABLE = /\{\{\s*([A-Za-z_][\w]*)\s*\}\}/g;

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Replaces each `{{name}}` (spaces inside the braces allowed) with `variables[name]`; strings as
 * is, other values as JSON. Variables that are not given stay in the text, so they show.
 */
export function compileTemplate(template: string, variables: Record<string, unknown> | undefined): string {
  if (!variables) return template;
  return template.replace(VARIABLE, (whole, name: string) => (Object.hasOwn(variables, name) ? text(variables[name]) : whole));
}

/**
 * The template in LangChain's f-string syntax: `{{name}}` becomes `{name}`, and every other
 * brace is doubled so JSON examples in a prompt are not read as variables.
 */
export function toLangchainTemplate(template: string): string {
  let out = '';
  let last = 0;
  for (const match of template.matchAll(VARIABLE)) {
    out += `${escapeBraces(template.slice(last, match.index))}{${match[1]}}`;
    last = match.index + match[0].length;
  }
  return out + escapeBraces(template.slice(last));
}

function escapeBraces(s: string): string {
  return s.replace(/[{}]/g, (b) => b + b);
}
