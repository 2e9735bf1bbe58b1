/**
 * The request line and the `Host` header, checked before anything else: a request must name one
 * host, once. Two `Host` headers (a proxy and the server could each read another) and a target
 * in absolute form naming a host this server does not answer for (`GET http://elsewhere/ …`,
 * whose authority outranks `Host`) are answered 400; so are the asterisk and authority forms.
 */
import type { IncomingMessage } from 'node:http';
import type { HostGuard } from './hosts.js';
import { hostOfHeader } from './hosts.js';

/** The request's path and query as a URL, or why the request is refused (400). */
export function requestTarget(req: IncomingMessage, hosts: HostGuard): { url: URL } | { refusal: string } {
  let hostHeaders = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') hostHeaders++;
  if (hostHeaders > 1) return { refusal: `the request has ${hostHeaders} Host headers` };
  const target = req.url ?? '/';
  if (target.startsWith('/')) return { url: new URL(target, 'http://local') };
  if (!/^https?:\/\//i.test(target)) return { refusal: `the request target ${JSON.stringify(target.slice(0, 100))} is not a path` };
  let absolute: URL;
  try {
    absolute = new URL(target);
  } catch {
    return { refusal: `the request target ${JSON.stringify(target.slice(0, 100))} is not a URL` };
  }
  const host = hostOfHeader(absolute.host);
  if (host === undefined || !hosts.allows(host))
    return { refusal: `the request target names another host (${JSON.stringify(absolute.host)})` };
  return { url: new URL(`${absolute.pathname}${absolute.search}`, 'http://local') };
}
