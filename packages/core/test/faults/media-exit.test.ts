/**
 * Media and the process's life: a script whose work is done exits on its own (neither the hash
 * worker, an upload's socket nor a retry wait holds it), after the exit flush delivered its
 * media; an upload that never answers is given up at the deadline and named in the line. Real
 * child processes against a local obs server.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mediaReferencesIn, noisePng, setupObsServer } from '@obs/local-server/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { TRACING_KEYS } from '../support/server.js';

const { server } = await setupObsServer(TRACING_KEYS).ready;

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../../..');
const node = existsSync(join(repoRoot, 'node_modules/.bin/node')) ? join(repoRoot, 'node_modules/.bin/node') : process.execPath;
// Inside the repository, so `import '@obs/core'` resolves through node_modules to the built package.
const script = join(here, `.media-exit-app-${process.pid}.mjs`);
const imageFile = join(here, `.media-exit-image-${process.pid}.png`);
afterAll(() => {
  rmSync(script, { force: true });
  rmSync(imageFile, { force: true });
});

/** ~2 MB: hashed on the worker thread. */
const PNG = noisePng(820, 820, 41);

const APP = `
import { readFileSync } from 'node:fs';
import { initObs, startObservation } from '@obs/core';
initObs({ shutdownTimeout: Number(process.env.SHUTDOWN_TIMEOUT ?? 15) });
const image = 'data:image/png;base64,' + readFileSync(${JSON.stringify(imageFile)}).toString('base64');
startObservation('vision', { input: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: image } }] }] }, { asType: 'generation' }).end();
process.stdout.write('done\\n');
`;

async function run(env: Record<string, string> = {}): Promise<{ tookMs: number; code: number | null; stderr: string }> {
  writeFileSync(script, APP);
  writeFileSync(imageFile, PNG);
  const child = spawn(node, [script], {
    env: { ...process.env, OBS_BASE_URL: server.url, OBS_PUBLIC_KEY: server.publicKey, OBS_SECRET_KEY: server.secretKey, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let doneAt = 0;
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    if (!doneAt && c.toString().includes('done')) doneAt = Date.now();
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  return { tookMs: Date.now() - doneAt, code, stderr };
}

describe('media at the end of a script', () => {
  it('the exit flush delivers the media (ask, upload, report) and the span, then the process exits on its own', async () => {
    const r = await run();
    expect(r.code).toBe(0);
    const [span] = server.spansByName('vision');
    const refs = mediaReferencesIn(String(span?.attributes['obs.observation.input']));
    expect(refs).toHaveLength(1);
    expect(server.media.counts(refs[0]!.id)).toEqual({ asks: 1, uploads: 1, reports: 1 });
    expect(server.media.bytes(refs[0]!.id)?.equals(PNG)).toBe(true);
    expect(r.stderr).not.toMatch(/gave up|dropped/);
  }, 30_000);

  it('an upload that never answers: the exit flush gives up at the deadline, names it, and the process exits', async () => {
    server.media.injectFault('upload', { hang: true, times: 10 });
    const r = await run({ SHUTDOWN_TIMEOUT: '2' });
    server.clearFaults();
    expect(r.code).toBe(0);
    // Bounded by the deadline (2 s), with room for a loaded machine; never the upload's own timeout.
    expect(r.tookMs).toBeLessThan(2000 + 3000);
    expect(server.spansByName('vision')).toHaveLength(1);
    expect(r.stderr).toMatch(/exit flush gave up after [\d.]+ s: .*; 0 media dropped unsent, 1 in flight without an answer/);
  }, 30_000);
});
