/**
 * Which host names a request may use (DNS-rebinding defence): a web page that points its own
 * domain at 127.0.0.1 reaches the server with its domain in `Host` (and `Origin`), so only names
 * that can only mean this machine, and the ones the user allowed, are served.
 */
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** Whether a bind address or host name means this machine's loopback only. */
export function isLoopbackHost(host: string): boolean {
  const h = normalizeHost(host);
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h)?.[1];
  return mapped?.startsWith('127.') === true;
}

/** Whether a bind address listens on every interface. */
export function isWildcardHost(host: string): boolean {
  const h = normalizeHost(host);
  return h === '0.0.0.0' || h === '::' || h === '0:0:0:0:0:0:0:0';
}

/** Lower case, without brackets or a trailing dot. */
function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

/** The host name of a `Host` header (`name:port`, `[v6]:port`); `undefined` when it is not one. */
export function hostOfHeader(header: string): string | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s@]+)(?::(\d{1,5}))?$/.exec(header.trim());
  return m ? normalizeHost(m[1]!) : undefined;
}

/** The host name of an `Origin` header (`scheme://host[:port]`); `undefined` for `null` and anything else. */
export function hostOfOrigin(origin: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]+$/i.test(origin.trim())) return undefined;
  try {
    const hostname = new URL(origin.trim()).hostname;
    return hostname ? normalizeHost(hostname) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Parses an allow-list: host names separated by commas or spaces; a leading dot (`.example.test`)
 * allows the name and every name under it. Ports are ignored.
 */
export function parseAllowedHosts(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(/[\s,]+/))
    .map((v) => v.trim())
    .filter((v) => v !== '')
    .map((v) => {
      const dot = v.startsWith('.');
      const name = hostOfHeader(dot ? v.slice(1) : v) ?? normalizeHost(v);
      return dot ? `.${name}` : name;
    });
}

/** Decides whether a request's `Host` and `Origin` name this server. */
export class HostGuard {
  private readonly exact = new Set<string>();
  private readonly suffixes: string[] = [];

  /**
   * @param allowed names from `--allow-host` / `$OBS_LOCAL_ALLOWED_HOSTS` (see {@link parseAllowedHosts})
   * @param bindHost where the server listens: its own name is allowed, and on a wildcard bind
   *   this machine's own addresses (a page cannot make a browser send those unless it came from here)
   */
  constructor(allowed: readonly string[], bindHost: string | undefined) {
    for (const name of allowed) {
      if (name.startsWith('.')) this.suffixes.push(name);
      else this.exact.add(name);
    }
    if (bindHost === undefined || isLoopbackHost(bindHost)) return;
    if (isWildcardHost(bindHost)) {
      for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) this.exact.add(normalizeHost(a.address));
    } else {
      this.exact.add(normalizeHost(bindHost));
    }
  }

  /** Whether a host name may be used to reach the server. */
  allows(host: string): boolean {
    if (isLoopbackHost(host) || this.exact.has(host)) return true;
    return this.suffixes.some((s) => host === s.slice(1) || host.endsWith(s));
  }

  /** Why a request is refused, or `undefined` when its `Host` (and `Origin`, when sent) are allowed. */
  refusal(headers: { host?: string | undefined; origin?: string | string[] | undefined }): string | undefined {
    const hostHeader = headers.host;
    if (hostHeader === undefined || hostHeader === '') return 'the request has no Host header';
    const host = hostOfHeader(hostHeader);
    if (host === undefined || !this.allows(host)) return `Host ${JSON.stringify(hostHeader)} is not this machine`;
    const origin = Array.isArray(headers.origin) ? headers.origin[0] : headers.origin;
    if (origin === undefined) return undefined;
    const originHost = hostOfOrigin(origin);
    if (originHost === undefined || !this.allows(originHost)) return `Origin ${JSON.stringify(origin)} is not this machine`;
    return undefined;
  }
}
