/**
 * The viewer's door: the headers every viewer answer carries (no caching, a content security
 * policy under which the page loads nothing from elsewhere, no MIME sniffing), and, when the
 * server is reachable beyond loopback, the token a viewer request must bring: `?token=` (kept
 * in a cookie from then on), the cookie, or the secret key (`?token=`, Bearer or Basic).
 */
import type { IncomingMessage } from 'node:http';
import type { Answer } from './answer.js';
import { parseAuth } from './auth.js';
import { sameSecret } from './secrets.js';

/** Headers of every viewer answer. */
export const VIEWER_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // The token may be in the page's address: no page the viewer links to learns it.
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/** What the door decided: let the request in, or answer for the route. */
export type DoorOutcome = { enter: true; setCookie?: string } | { enter: false; answer: Answer };

/** Checks viewer requests for the token when one is required. */
export class ViewerDoor {
  /**
   * @param token the viewer token, or `undefined` when the viewer needs none (loopback only)
   * @param keys the API keys: the secret key opens the viewer too
   * @param port the port the server listens on, once known (the cookie is named after it:
   *   cookies ignore ports, and two servers on one machine must not overwrite each other's)
   */
  constructor(
    private readonly token: string | undefined,
    private readonly keys: { publicKey: string; secretKey: string },
    private readonly port: () => number,
  ) {}

  /** Whether the viewer needs a token. */
  get locked(): boolean {
    return this.token !== undefined;
  }

  /** Lets a viewer request in, or answers 401 (or, for the page opened with its token, a redirect that sets the cookie). */
  check(req: IncomingMessage, url: URL): DoorOutcome {
    if (this.token === undefined) return { enter: true };
    const fromQuery = url.searchParams.get('token');
    const fromCookie = this.cookie(req.headers.cookie);
    const fromHeader = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const basic = parseAuth(req.headers.authorization, this.keys.publicKey, this.keys.secretKey) === 'secret';
    if (fromQuery !== null && this.opens(fromQuery)) {
      const setCookie = `${this.cookieName()}=${encodeURIComponent(fromQuery)}; Path=/; HttpOnly; SameSite=Lax`;
      // The page drops the token from its address (history, screenshots); the fragment stays.
      if (url.pathname === '/')
        return { enter: false, answer: { status: 303, body: '', headers: { location: '/', 'set-cookie': setCookie } } };
      return { enter: true, setCookie };
    }
    if (basic || (fromCookie !== undefined && this.opens(fromCookie)) || (fromHeader !== undefined && this.opens(fromHeader))) {
      return { enter: true };
    }
    const message =
      'This trace viewer is reachable from the network, so it needs its token: open the address printed when the server ' +
      'started (http://<host>:<port>/?token=...), or send the secret key (?token=<secret key>, or Basic auth with the keys).';
    return {
      enter: false,
      answer: url.pathname.startsWith('/viewer-api/') ? { status: 401, body: { message } } : { status: 401, body: message },
    };
  }

  private opens(candidate: string): boolean {
    // Both compared (no short circuit), each in constant time.
    const token = sameSecret(candidate, this.token!);
    const secret = sameSecret(candidate, this.keys.secretKey);
    return token || secret;
  }

  private cookieName(): string {
    return `obs_viewer_${this.port()}`;
  }

  private cookie(header: string | undefined): string | undefined {
    const name = this.cookieName();
    for (const part of (header ?? '').split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) {
        try {
          return decodeURIComponent(part.slice(eq + 1).trim());
        } catch {
          return undefined;
        }
      }
    }
    return undefined;
  }
}
