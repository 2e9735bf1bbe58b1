/**
 * obs's lines never reach a program's own output: at `OBS_LOG_LEVEL=debug` every `[obs]` line of a
 * real child process goes to stderr and its stdout holds only what the program wrote (a stdio MCP
 * server's JSON-RPC, a CLI's result). `console.info` and `console.debug` write to stdout on
 * Node.js, so the default sink must not use them there.
 */
import { execFile } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../../..');
const node = existsSync(join(repoRoot, 'node_modules/.bin/node')) ? join(repoRoot, 'node_modules/.bin/node') : process.execPath;
// Inside the repository, so `import '@obs/core'` resolves through node_modules to the built package.
const script = join(here, `.log-stream-app-${process.pid}.mjs`);
const local = setupObsServer({ reset: false });

afterAll(() => rmSync(script, { force: true }));

it('at OBS_LOG_LEVEL=debug, stdout holds only the program output; the obs lines are on stderr', async () => {
  writeFileSync(
    script,
    `import { initObs, startActiveObservation } from '@obs/core';
const obs = initObs();
await startActiveObservation('log-stream', async () => {});
await obs.flush();
process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{}}\\n');
await obs.shutdown();
`,
  );
  const { stdout, stderr } = await promisify(execFile)(node, [script], {
    env: { ...process.env, ...local.server.env, OBS_LOG_LEVEL: 'debug' },
  });
  expect(stdout).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
  const lines = stderr.split('\n').filter((l) => l.startsWith('[obs]'));
  // The start-up line (info) and debug lines of the export are there, on stderr.
  expect(lines.length).toBeGreaterThanOrEqual(2);
  expect(lines.some((l) => l.startsWith('[obs] on: exporting to'))).toBe(true);
  expect(local.server.spans().filter((s) => s.name === 'log-stream')).toHaveLength(1);
}, 60_000);
