/**
 * Where `obs-local-server` keeps its data when not told: one per-user directory, the one the
 * operating system sets aside for an application's data, so traces outlive a restart, are the
 * same whichever project directory the server was started from, and never land in a repository.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The default data directory for this platform and environment. */
export function defaultDataDir(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string {
  const home = env['HOME'] || env['USERPROFILE'] || homedir();
  if (platform === 'win32') return join(env['LOCALAPPDATA'] || join(home, 'AppData', 'Local'), 'obs-local-server');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'obs-local-server');
  return join(env['XDG_DATA_HOME'] || join(home, '.local', 'share'), 'obs-local-server');
}
