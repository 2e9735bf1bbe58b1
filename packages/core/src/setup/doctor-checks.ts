/**
 * The doctor's checks (`diagnose()`): keys and base URL present and without whitespace inside
 * (around them it is harmless: obs trims it, and the check says so without failing), the server
 * reachable and an obs server, the keys accepted, the clock in sync (within what the server's
 * `Date` header can tell: whole seconds). Loaded on the first `diagnose()`, never at start.
 */
import { basicAuth, resolveConnection, type ObsConnectionOptions } from '../config/connection.js';
import { readEnv } from '../config/env.js';
import { withTracingSuppressed } from '../tracing/suppress.js';

/** One check of `diagnose()`. */
export interface DiagnosisCheck {
  name: 'configuration' | 'whitespace' | 'server' | 'keys' | 'clock';
  ok: boolean;
  /** What was found. */
  message: string;
  /** What to do about it, when `ok` is false. */
  fix?: string;
}

/** What `diagnose()` found. */
export interface Diagnosis {
  ok: boolean;
  baseUrl?: string;
  checks: DiagnosisCheck[];
}

export interface DiagnoseOptions extends ObsConnectionOptions {
  /** Seconds each request may take; default 5. */
  timeout?: number;
  /** Print the result (one line per check, then what to fix); default false. */
  print?: boolean | ((line: string) => void);
}

/** Largest clock difference with the server that is still fine. */
const MAX_SKEW_MS = 5 * 60_000;

/** Runs every check of `diagnose()` (which prints the result when asked). */
export async function runChecks(options: DiagnoseOptions): Promise<Diagnosis> {
  const checks: DiagnosisCheck[] = [];
  const conn = resolveConnection(options);
  if (!conn.ok) {
    checks.push({
      name: 'configuration',
      ok: false,
      message: `${conn.problem}`,
      fix: 'set OBS_PUBLIC_KEY, OBS_SECRET_KEY and OBS_BASE_URL (for a local server: npx @obs/local-server prints them)',
    });
  } else checks.push({ name: 'configuration', ok: true, message: `base URL ${conn.baseUrl}, public key ${conn.publicKey}` });

  checks.push(whitespaceCheck());

  if (conn.baseUrl) {
    const timeoutMs = 1000 * (typeof options.timeout === 'number' && options.timeout > 0 ? options.timeout : 5);
    const health = await request(`${conn.baseUrl}/api/public/health`, timeoutMs);
    const server = serverCheck(conn.baseUrl, health);
    checks.push(server);
    // Keys and clock mean something only against an obs server.
    if (server.ok && health.ok) {
      if (health.date !== undefined) checks.push(clockCheck(health.date, health.sentAt, health.receivedAt));
      if (conn.publicKey && conn.secretKey) {
        const auth = await request(`${conn.baseUrl}/api/public/projects`, timeoutMs, basicAuth(conn.publicKey, conn.secretKey));
        checks.push(keysCheck(conn.baseUrl, auth));
      }
    }
  }
  return { ok: checks.every((c) => c.ok), checks, ...(conn.baseUrl && { baseUrl: conn.baseUrl }) };
}

type Answer = Awaited<ReturnType<typeof request>>;

const ENV_NAMES = ['OBS_PUBLIC_KEY', 'OBS_SECRET_KEY', 'OBS_BASE_URL'] as const;

/** Whitespace in the `OBS_*` variables: inside a value it breaks it; around it (a newline from a secrets file) obs trims it. */
function whitespaceCheck(): DiagnosisCheck {
  const raw = ENV_NAMES.map((name) => [name, readEnv(name, { raw: true })] as const);
  const inside = raw.filter(([, v]) => v !== undefined && /\s/.test(v.trim())).map(([name]) => name);
  if (inside.length > 0) {
    return {
      name: 'whitespace',
      ok: false,
      message: `${inside.join(', ')} ${inside.length === 1 ? 'has' : 'have'} whitespace inside: no server accepts ${inside.length === 1 ? 'it' : 'them'}`,
      fix: `remove the whitespace from ${inside.join(', ')} where ${inside.length === 1 ? 'it is' : 'they are'} set`,
    };
  }
  const around = raw.filter(([, v]) => v !== undefined && v !== v.trim()).map(([name]) => name);
  if (around.length > 0) {
    return {
      name: 'whitespace',
      ok: true,
      message: `${around.join(', ')} ${around.length === 1 ? 'ends or starts' : 'end or start'} with whitespace (a newline from a secrets file): obs trims it, harmless`,
    };
  }
  return { name: 'whitespace', ok: true, message: 'no stray whitespace in OBS_* variables' };
}

/**
 * The clock check: the server's `Date` header is in whole seconds, and it was written at some
 * moment between the request's departure and the answer's arrival, so only a difference beyond
 * that window is one; within it the clocks agree as far as the server can tell.
 */
function clockCheck(serverDate: number, sentAt: number, receivedAt: number): DiagnosisCheck {
  // Local minus server time lies in [sentAt - (date + 1 s), receivedAt - date].
  const least = sentAt - (serverDate + 1000);
  const most = receivedAt - serverDate;
  if (least <= 0 && most >= 0) {
    return { name: 'clock', ok: true, message: "clock in sync with the server's (to the second, as its Date header tells)" };
  }
  const skew = least > 0 ? least : most;
  const ok = Math.abs(skew) <= MAX_SKEW_MS;
  const seconds = Math.max(1, Math.round(Math.abs(skew) / 1000));
  return {
    name: 'clock',
    ok,
    message: `clock is ${seconds} s ${skew > 0 ? 'ahead of' : 'behind'} the server's`,
    fix: ok ? undefined : 'sync this machine clock (NTP): traces would show at the wrong time',
  };
}

const WRONG_BASE_URL = (baseUrl: string) =>
  `check OBS_BASE_URL (${baseUrl}): it must be the obs server's root address (e.g. https://obs.example.com), without /api/public`;

/** The server check: reachable, and answering as an obs server (`{ "status": "OK" }` from its health route). */
function serverCheck(baseUrl: string, health: Answer): DiagnosisCheck {
  if (!health.ok) {
    return {
      name: 'server',
      ok: false,
      message: `${baseUrl} is not reachable: ${health.error}`,
      fix: `check OBS_BASE_URL (${baseUrl}) and that the server is running and reachable from here`,
    };
  }
  if (health.status >= 500) {
    return {
      name: 'server',
      ok: false,
      message: `${baseUrl}/api/public/health answered HTTP ${health.status}`,
      fix: 'the server is up but unhealthy: check its logs',
    };
  }
  if (health.status !== 200 || !isObsHealth(health.body)) {
    return {
      name: 'server',
      ok: false,
      message: `${baseUrl}/api/public/health answered HTTP ${health.status}, ${health.status === 200 ? 'but not as an obs server' : 'not as an obs server does'}: this is not an obs server's address`,
      fix: WRONG_BASE_URL(baseUrl),
    };
  }
  return { name: 'server', ok: true, message: `${baseUrl} is an obs server (health: OK)` };
}

function keysCheck(baseUrl: string, auth: Answer): DiagnosisCheck {
  if (!auth.ok) return { name: 'keys', ok: false, message: `could not check the keys: ${auth.error}`, fix: 'try again; check the server' };
  if (auth.status === 401 || auth.status === 403) {
    return {
      name: 'keys',
      ok: false,
      message: `wrong keys for this server (HTTP ${auth.status})`,
      fix: `check OBS_PUBLIC_KEY and OBS_SECRET_KEY: they must be a key pair of ${baseUrl}`,
    };
  }
  if (auth.status === 200) return { name: 'keys', ok: true, message: `keys accepted (HTTP ${auth.status})` };
  return {
    name: 'keys',
    ok: false,
    message: `keys not checked: the server answered HTTP ${auth.status}`,
    fix: auth.status === 404 ? WRONG_BASE_URL(baseUrl) : 'try again; check the server',
  };
}

function isObsHealth(body: unknown): boolean {
  return typeof body === 'object' && body !== null && String((body as { status?: unknown }).status).toUpperCase() === 'OK';
}

async function request(
  url: string,
  timeoutMs: number,
  authorization?: string,
): Promise<{ ok: true; status: number; body: unknown; date?: number; sentAt: number; receivedAt: number } | { ok: false; error: string }> {
  const sentAt = Date.now();
  try {
    const res = await withTracingSuppressed(() =>
      fetch(url, { headers: authorization ? { authorization } : {}, signal: AbortSignal.timeout(timeoutMs) }),
    );
    const receivedAt = Date.now();
    // A body that cannot be read or is not JSON: no body (the server check says it is not obs).
    const body: unknown = await res.json().catch(() => undefined);
    const date = res.headers.get('date');
    const parsed = date ? Date.parse(date) : Number.NaN;
    return { ok: true, status: res.status, body, sentAt, receivedAt, ...(Number.isFinite(parsed) && { date: parsed }) };
  } catch (err) {
    const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    const error =
      e.name === 'TimeoutError'
        ? `no answer within ${timeoutMs / 1000} s`
        : (e.cause?.code ?? e.cause?.message ?? e.message ?? String(err));
    return { ok: false, error };
  }
}
