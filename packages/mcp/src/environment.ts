/**
 * `obsEnvironment()`: the obs settings to hand a stdio server process. The SDK's
 * `StdioClientTransport` starts a server with HOME, LOGNAME, PATH, SHELL, TERM and USER only,
 * unless it is given `env`: an observed server started that way has no keys and exports nothing.
 */

/**
 * The `OBS_*` variables of this process (keys, base URL, flush and log settings), to pass in a
 * stdio server's `env` next to the SDK's `getDefaultEnvironment()`.
 *
 * @example
 * ```ts
 * const transport = new StdioClientTransport({
 *   command: 'node',
 *   args: ['weather-server.js'],
 *   env: { ...getDefaultEnvironment(), ...obsEnvironment() },
 * });
 * ```
 */
export function obsEnvironment(): Record<string, string> {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (key.startsWith('OBS_') && value !== undefined) out[key] = value;
  return out;
}
