/**
 * The package version, read from package.json (works from src/ and dist/).
 */
import { readFileSync } from 'node:fs';

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Version of `@obs/local-server`, reported by `GET /api/public/health`. */
export const VERSION: string = readVersion();
