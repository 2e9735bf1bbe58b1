import { baseUrlProblem } from '../util/url-credentials.js';
import { readEnv } from './env.js';

/** Connection settings shared by the span exporter, the score manager and the API client. */
export interface ObsConnectionOptions {
  /** Public key; default `OBS_PUBLIC_KEY`. */
  publicKey?: string;
  /** Secret key; default `OBS_SECRET_KEY`. Never logged, never put on a span. */
  secretKey?: string;
  /** Base URL of the obs server; default `OBS_BASE_URL`, then `OBS_BASEURL`. No hosted default. */
  baseUrl?: string;
}

/** Resolved connection settings; `ok` is false when something needed is missing or unusable (an unusable `baseUrl` is left out). */
export interface ResolvedConnection extends ObsConnectionOptions {
  ok: boolean;
  /** What is missing. */
  missing: string[];
  /** Why nothing can be sent, for the one warning the SDK logs: what is missing, or why the base URL is unusable. */
  problem?: string;
}

/** Options first, then `OBS_*` environment variables (wire contract 1). */
export function resolveConnection(options: ObsConnectionOptions = {}): ResolvedConnection {
  const publicKey = trimmed(options.publicKey) ?? readEnv('OBS_PUBLIC_KEY');
  const secretKey = trimmed(options.secretKey) ?? readEnv('OBS_SECRET_KEY');
  const rawBase = options.baseUrl ?? readEnv('OBS_BASE_URL') ?? readEnv('OBS_BASEURL');
  const given = typeof rawBase === 'string' ? rawBase.trim().replace(/\/+$/, '') : undefined;
  const missing: string[] = [];
  if (!publicKey) missing.push('publicKey (OBS_PUBLIC_KEY)');
  if (!secretKey) missing.push('secretKey (OBS_SECRET_KEY)');
  if (!given) missing.push('baseUrl (OBS_BASE_URL)');
  // A base URL that cannot work is refused here, once, for spans, scores, the API and media alike.
  const unusable = given ? baseUrlProblem(given) : undefined;
  const baseUrl = unusable ? undefined : given;
  const problem = missing.length > 0 ? `missing ${missing.join(', ')}` : unusable;
  return { publicKey, secretKey, baseUrl, ok: problem === undefined, missing, problem };
}

/** A string option without surrounding whitespace (keys pasted with a newline); empty means unset. */
function trimmed(value: string | undefined): string | undefined {
  const v = typeof value === 'string' ? value.trim() : value;
  return v === '' ? undefined : v;
}

/** `Basic base64(publicKey:secretKey)`; works on Node, edge and browsers. */
export function basicAuth(publicKey: string, secretKey = ''): string {
  const raw = `${publicKey}:${secretKey}`;
  const b64 =
    typeof Buffer !== 'undefined'
      ? Buffer.from(raw, 'utf8').toString('base64')
      : btoa(String.fromCharCode(...new TextEncoder().encode(raw)));
  return `Basic ${b64}`;
}

/** The headers every request of the SDK carries besides auth. */
export function sdkHeaders(publicKey: string, version: string): Record<string, string> {
  return {
    'x-obs-sdk-name': 'javascript',
    'x-obs-sdk-version': version,
    'x-obs-public-key': publicKey,
  };
}
