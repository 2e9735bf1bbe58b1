/**
 * SIGTERM against a black-holed server: the process flushes what it can and exits within
 * `shutdownTimeout` (not after the request timeouts and retries), saying what it gave up.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startObsServer } from '@obs/local-server';
import { afterAll, describe, expect, it } from 'vitest';
import { TRACES_PATH } from '../../src/kit.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../../..');
const node = existsSync(join(repoRoot, 'node_modules/.bin/node')) ? join(repoRoot, 'node_modules/.bin/node') : process.execPath;
// Inside the repository, so `import '@obs/core'` resolves through node_modules to the built package.
const script = join(here, `.sigterm-app-${process.pid}.mjs`);

const APP = `
import { initObs, startObservation } from '@obs/core';
initObs({ shutdownTimeout: 1, flushInterval: 60 });
for (let i = 0; i < 5; i++) startObservation('sigterm-' + i).end();
setInterval(() => {}, 1000);
process.stdout.write('ready\\n');
`;

afterAll(() => rmSync(script, { force: true }));

describe('SIGTERM', () => {
  it('exits within shutdownTimeout when the server never answers, by the re-raised signal, with one line', async () => {
    writeFileSync(script, APP);
    const server = await startObsServer({ quiet: true });
    server.injectFault({ path: TRACES_PATH, hang: true, durationMs: 60_000 });
    try {
      const child = spawn(node, [script], {
        env: {
          ...process.env,
          ...server.env,
          OBS_LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      await new Promise<void>((resolve) => child.stdout.on('data', (c: Buffer) => c.toString().includes('ready') && resolve()));
      const sent = Date.now();
      child.kill('SIGTERM');
      const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        child.on('exit', (c, s) => resolve([c, s])),
      );
      const took = Date.now() - sent;
      expect(signal ?? code).toBe('SIGTERM');
      expect(took).toBeLessThan(6000);
      expect(stderr.match(/shutdown gave up after 1\.0 s: 0 spans dropped unsent, 5 in flight without an answer/g)).toHaveLength(1);
      expect(server.spans()).toHaveLength(0);
    } finally {
      await server.close();
    }
  }, 20_000);
});
