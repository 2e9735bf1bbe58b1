/**
 * `diagnose()`: checks an obs set-up end to end and says what to fix: keys and base URL present
 * and without stray whitespace, the server reachable, the keys accepted, the clock sane. Used by
 * `npx obs doctor`; never throws.
 */
import { basicAuth, resolveConnection, type ObsConnectionOptions } from '../config/connection.js';
import { readEnv } from '../config/env.js';

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

/**
 * Checks the configuration against the server it names. Resolves with every check's result;
 * with `print`, also writes them (✓/✗ and the fix) to the console or the given function.
 */
export async function diagnose(options: DiagnoseOptions = {}): Promise<Diagnosis> {
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

  const padded = (['OBS_PUBLIC_KEY', 'OBS_SECRET_KEY', 'OBS_BASE_URL'] as const).filter((name) => {
    const raw = readEnv(name, { raw: true });
    return raw !== undefined && raw !== raw.trim();
  });
  checks.push(
    padded.length > 0
      ? {
          name: 'whitespace',
          ok: false,
          message: `${padded.join(', ')} ha${padded.length === 1 ? 's' : 've'} leading or trailing whitespace (obs trims it)`,
          fix: `remove the whitespace or newline from ${padded.join(', ')} where it is set`,
        }
      : { name: 'whitespace', ok: true, message: 'no stray whitespace in OBS_* variables' },
  );

  if (conn.baseUrl) {
    const timeoutMs = 1000 * (typeof options.timeout === 'number' && options.timeout > 0 ? options.timeout : 5);
    const health = await request(`${conn.baseUrl}/api/public/health`, timeoutMs);
    if (!health.ok) {
      checks.push({
        name: 'server',
        ok: false,
        message: `${conn.baseUrl} is not reachable: ${health.error}`,
        fix: `check OBS_BASE_URL (${conn.baseUrl}) and that the server is running and reachable from here`,
      });
    } else {
      checks.push({
        name: 'server',
        ok: health.status < 500,
        message: `${conn.baseUrl}/api/public/health answered HTTP ${health.status}`,
        fix: health.status < 500 ? undefined : 'the server is up but unhealthy: check its logs',
      });
      if (health.date !== undefined) {
        const skew = Date.now() - health.date;
        const ok = Math.abs(skew) <= MAX_SKEW_MS;
        checks.push({
          name: 'clock',
          ok,
          message: `clock differs from the server's by ${Math.round(skew / 1000)} s`,
          fix: ok ? undefined : 'sync this machine clock (NTP): traces would show at the wrong time',
        });
      }
      if (conn.publicKey && conn.secretKey) {
        const auth = await request(`${conn.baseUrl}/api/public/projects`, timeoutMs, basicAuth(conn.publicKey, conn.secretKey));
        if (!auth.ok)
          checks.push({ name: 'keys', ok: false, message: `could not check the keys: ${auth.error}`, fix: 'try again; check the server' });
        else if (auth.status === 401 || auth.status === 403) {
          checks.push({
            name: 'keys',
            ok: false,
            message: `wrong keys for this server (HTTP ${auth.status})`,
            fix: `check OBS_PUBLIC_KEY and OBS_SECRET_KEY: they must be a key pair of ${conn.baseUrl}`,
          });
        } else
          checks.push({
            name: 'keys',
            ok: auth.status < 400,
            message: `keys ${auth.status < 400 ? 'accepted' : 'not accepted'} (HTTP ${auth.status})`,
          });
      }
    }
  }
  const result: Diagnosis = { ok: checks.every((c) => c.ok), checks, ...(conn.baseUrl && { baseUrl: conn.baseUrl }) };
  if (options.print) printDiagnosis(result, typeof options.print === 'function' ? options.print : (line) => console.log(line));
  return result;
}

/** Writes a diagnosis: one line per check, then what to fix. */
export function printDiagnosis(d: Diagnosis, write: (line: string) => void): void {
  for (const c of d.checks) write(`${c.ok ? '✓' : '✗'} ${c.name}: ${c.message}`);
  const fixes = d.checks.filter((c) => !c.ok && c.fix);
  if (fixes.length === 0) write('obs is set up: spans and scores will reach the server.');
  else {
    write('\nTo fix:');
    for (const c of fixes) write(`- ${c.fix}`);
  }
}

async function request(
  url: string,
  timeoutMs: number,
  authorization?: string,
): Promise<{ ok: true; status: number; date?: number } | { ok: false; error: string }> {
  try {
    const res = await fetch(url, { headers: authorization ? { authorization } : {}, signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer().catch(() => undefined);
    const date = res.headers.get('date');
    const parsed = date ? Date.parse(date) : Number.NaN;
    return { ok: true, status: res.status, ...(Number.isFinite(parsed) && { date: parsed }) };
  } catch (err) {
    const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    const error =
      e.name === 'TimeoutError'
        ? `no answer within ${timeoutMs / 1000} s`
        : (e.cause?.code ?? e.cause?.message ?? e.message ?? String(err));
    return { ok: false, error };
  }
}
