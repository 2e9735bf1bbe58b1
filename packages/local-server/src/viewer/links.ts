/**
 * The viewer's page addresses (`#/route/part/part`), made on the server the way the page makes
 * them (viewer/dom.js `link`): each part URI-encoded.
 */

/** `#/trace/<id>`, `#/compare/<runId>`, … */
export function link(...parts: string[]): string {
  return `#/${parts.map((p) => encodeURIComponent(p)).join('/')}`;
}
