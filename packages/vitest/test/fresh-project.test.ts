/**
 * `@obs/vitest` as a user gets it: `@obs/core`, `@obs/openai` and `@obs/vitest` packed with
 * `npm pack` and installed into a fresh project (vitest 5, the real OpenAI SDK), whose eval file
 * (test/fixture/evals) asks a stand-in OpenAI endpoint that counts requests for the capitals of 12
 * countries, with obs configured by the `OBS_*` environment alone and the model client made at
 * module load, before `@obs/vitest` is imported. Real `vitest run` child processes, read back
 * from the local obs server:
 *
 * - record: 12 requests, one run with 12 items, each item's generation nested under its root,
 *   12 × 2 item scores and a run score; a cassette without the API key;
 * - replay with the endpoint down: 0 requests, the same scores, a fraction of the record's time;
 *   both runs side by side in the viewer's run comparison;
 * - a threshold above the mean: exit code 1 and the one line naming score, mean, threshold and
 *   the previous run's mean;
 * - `-t` picking one item: its trace and scores still delivered, the baseline left alone;
 * - `.concurrent` (4 at once, live calls): the same scores as the serial run, 4 requests in flight;
 * - a dataset run (`{ dataset: 'capitals' }`) including an item made from a production trace with
 *   `createItemFromTrace`: every root linked to the dataset and its item, the new call recorded;
 * - `@obs/vitest/node-test` under `node --test`: record, then replay with the endpoint down.
 *
 * Then the same eval file in two more fresh projects, on the lowest vitest the peer range allows
 * (3.0.1) and on vitest 4: a recording run (12 requests, its run and scores in obs) whose
 * threshold fails (exit 1, the line).
 * The installs use their own npm cache and skip with a message when the registry is unreachable.
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { initObs, startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { CAPITALS, RIGHT, startStandInModel, type StandInModel } from './support/stand-in-model.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const npmCache = process.env.OBS_CONSUMER_NPM_CACHE ?? join(repo, 'node_modules', '.cache', 'obs-vitest-npm');
const repoLock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')).packages as Record<string, { version: string }>;
const pinned = (name: string) => repoLock[`node_modules/${name}`]!.version;

/**
 * The two ends of the peer range and the middle: this repository's vitest, the floor, and 4.
 * (vitest 3.0.0 itself imports @opentelemetry/api's ESM build by its `module` condition and fails
 * on any package that uses the API; 3.0.1 fixed that, hence the range's floor.)
 */
const VITEST = { top: pinned('vitest'), floor: '3.0.1', middle: '4' } as const;
const COUNTRIES = Object.keys(RIGHT).filter((c) => c !== 'Germany');

const local = setupObsServer({ reset: false, init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });
let dir: string;
let tarballs: string[] = [];
let unavailable: string | undefined;
const projects: Record<keyof typeof VITEST, string> = { top: '', floor: '', middle: '' };
/** The floor and middle projects, installed one after the other while the top project's cases run. */
let otherInstalls: Promise<void> = Promise.resolve();
let model: StandInModel;
let modelPort = 0;

const REGISTRY_ERROR =
  /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|E5\d\d|E429|FETCH_ERROR|network request to|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\b/;
class RegistryUnreachable extends Error {}

async function npmInstall(cwd: string): Promise<void> {
  const args = ['install', '--cache', npmCache, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];
  for (let attempt = 1; ; attempt++) {
    try {
      await run('npm', args, { cwd, maxBuffer: 32 * 1024 * 1024 });
      return;
    } catch (e) {
      const out = `${(e as { stdout?: string }).stdout ?? ''}${(e as { stderr?: string }).stderr ?? ''}`;
      if (!REGISTRY_ERROR.test(out)) throw new Error(`npm install failed in ${cwd}:\n${out}`);
      if (attempt >= 2) throw new RegistryUnreachable(out.split('\n').find((l) => REGISTRY_ERROR.test(l)) ?? out);
      await new Promise((r) => setTimeout(r, 3000));
    }
  }
}

/** A copy of the fixture with the tarballs and `vitest@version`, installed. */
async function freshProject(name: string, vitest: string): Promise<string> {
  const cwd = join(dir, name);
  cpSync(join(here, 'fixture'), cwd, { recursive: true, filter: (src) => !src.includes('__obs_cache__') && !src.includes('node_modules') });
  const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const file of tarballs) pkg.dependencies[`@obs/${file.match(/obs-([a-z-]+)-\d/)![1]}`] = `file:${file}`;
  Object.assign(pkg.dependencies, { vitest, openai: pinned('openai'), '@opentelemetry/api': pinned('@opentelemetry/api') });
  writeFileSync(join(cwd, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  await npmInstall(cwd);
  return cwd;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'obs-vitest-e2e-'));
  mkdirSync(join(dir, 'tarballs'));
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--pack-destination', join(dir, 'tarballs'), '-w', '@obs/core', '-w', '@obs/openai', '-w', '@obs/vitest'],
    { cwd: repo },
  );
  tarballs = (JSON.parse(stdout) as Array<{ filename: string }>).map((t) => join(dir, 'tarballs', t.filename.replace(/^@obs\//, 'obs-')));
  const skipOn = (err: unknown) => {
    if (!(err instanceof RegistryUnreachable)) throw err;
    unavailable = `the npm registry cannot be reached (${err.message.trim()}): the fresh-project tests are skipped`;
    console.warn(`[@obs/vitest e2e] ${unavailable}`);
  };
  try {
    projects.top = await freshProject('top', VITEST.top);
    // One npm at a time on the test's cache, the next ones beside the top project's cases.
    otherInstalls = (async () => {
      projects.floor = await freshProject('floor', VITEST.floor);
      projects.middle = await freshProject('middle', VITEST.middle);
    })().catch(skipOn);
  } catch (err) {
    skipOn(err);
  }
  model = await startStandInModel();
  modelPort = Number(new URL(model.baseURL).port);
}, 600_000);

afterAll(async () => {
  await model?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

function needsProjects(ctx: TestContext): void {
  if (unavailable) ctx.skip(unavailable);
}

interface ChildRun {
  code: number;
  out: string;
  /** Sum of the item tests' durations (vitest's JSON report), ms. */
  itemMs: number;
}

/** `vitest run` (or `node --test <file>`) in a project, with obs and the model in its environment. */
function child(cwd: string, env: Record<string, string>, nodeTest?: string, extraArgs: string[] = []): Promise<ChildRun> {
  const report = join(cwd, `report-${Date.now()}.json`);
  const args = nodeTest
    ? ['--test', nodeTest]
    : [
        join(cwd, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${report}`,
        ...extraArgs,
      ];
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...local.server.env,
    MODEL_URL: `http://127.0.0.1:${modelPort}/v1`,
    OBS_EVAL_CACHE: 'off',
    NO_COLOR: '1',
    ...env,
  };
  delete childEnv['FORCE_COLOR'];
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('exit', (code) => {
      let itemMs = 0;
      if (existsSync(report)) {
        const results = JSON.parse(readFileSync(report, 'utf8')) as {
          testResults: Array<{ assertionResults: Array<{ title: string; duration?: number }> }>;
        };
        for (const f of results.testResults) for (const t of f.assertionResults) if (t.title !== 'scores') itemMs += t.duration ?? 0;
      }
      resolve({ code: code ?? 1, out, itemMs });
    });
  });
}

/** Roots of the experiment runs that arrived since `before` (ids of runs seen already), by run. */
function newRuns(before: Set<string>): Map<string, DecodedSpan[]> {
  const runs = new Map<string, DecodedSpan[]>();
  for (const s of local.server.spansByName('experiment-item-run')) {
    const id = s.attributes['obs.experiment.id'] as string;
    if (before.has(id)) continue;
    runs.set(id, [...(runs.get(id) ?? []), s]);
  }
  return runs;
}
const seenRuns = () => new Set(local.server.spansByName('experiment-item-run').map((s) => s.attributes['obs.experiment.id'] as string));

/** Per country: its exact_match and length scores, read from the server for the run's roots. */
function scoresByCountry(roots: DecodedSpan[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const root of roots) {
    const country = (JSON.parse(root.attributes['obs.observation.input'] as string) as { country: string }).country;
    const scores = local.server.scores.filter((s) => s['traceId'] === root.traceId);
    out[country] = Object.fromEntries(scores.map((s) => [s['name'], s['value']]));
  }
  return out;
}

/** What the stand-in's answers score: exact_match 1 where it is right, the answer's length. */
const expectedScores = (countries: string[]) =>
  Object.fromEntries(countries.map((c) => [c, { exact_match: RIGHT[c] === CAPITALS[c] ? 1 : 0, length: CAPITALS[c]!.length }]));

async function restartModel(): Promise<void> {
  model = await startStandInModel(modelPort);
}

describe('a fresh vitest 5 project from the tarballs', () => {
  const cassette = () => join(projects.top, 'evals', '__obs_cache__', 'capitals.eval.test.ts.json');
  let recorded: { runId: string; scores: Record<string, Record<string, unknown>>; itemMs: number };

  it('record: 12 requests; one run of 12 items, each generation under its root, 24 item scores and 1 run score; no key in the cassette', async (ctx) => {
    needsProjects(ctx);
    model.latencyMs = 150;
    const before = seenRuns();
    const requests = model.requests.length;
    const r = await child(projects.top, { OBS_EVAL_CACHE: 'record' });
    expect(r.code, r.out).toBe(0);
    expect(model.requests.length - requests).toBe(12);
    await local.server.waitFor(() => newRuns(before).size === 1 && [...newRuns(before).values()][0]!.length === 12);
    const [[experimentId, roots]] = [...newRuns(before)] as [[string, DecodedSpan[]]];
    for (const root of roots) {
      const trace = local.server.spansByTrace(root.traceId);
      const generation = trace.find((s) => s.attributes['obs.observation.type'] === 'generation')!;
      expect(generation.parentSpanId).toBe(root.spanId);
      expect(trace.filter((s) => s.attributes['obs.observation.type'] === 'evaluator')).toHaveLength(2);
    }
    const scores = scoresByCountry(roots);
    expect(scores).toEqual(expectedScores(COUNTRIES));
    expect(local.server.scores.filter((s) => s['datasetRunId'] === experimentId)).toMatchObject([{ name: 'accuracy', value: 0.75 }]);
    expect(r.out).toContain(
      'describeEval "capitals": 12 items, calls 0 replayed, 12 recorded (OBS_EVAL_CACHE=record); accuracy 0.75, exact_match 0.75',
    );
    const text = readFileSync(cassette(), 'utf8');
    expect(Object.keys(JSON.parse(text).entries)).toHaveLength(12);
    for (const secret of ['sk-fixture-secret-key', 'authorization', 'set-cookie']) expect(text).not.toContain(secret);
    recorded = { runId: experimentId, scores, itemMs: r.itemMs };
  }, 120_000);

  it('node:test (@obs/vitest/node-test): record, 4 requests, one run with its scores', async (ctx) => {
    needsProjects(ctx);
    const before = seenRuns();
    const requests = model.requests.length;
    const r = await child(projects.top, { OBS_EVAL_CACHE: 'record' }, 'evals/capitals.node-test.mjs');
    expect(r.code, r.out).toBe(0);
    expect(model.requests.length - requests).toBe(4);
    expect(r.out).toContain(
      'describeEval "capitals on node:test": 4 items, calls 0 replayed, 4 recorded (OBS_EVAL_CACHE=record); exact_match 0.5',
    );
    await local.server.waitFor(() => [...newRuns(before).values()][0]?.length === 4);
  }, 120_000);

  it('replay with the endpoint down: 0 requests, the same scores, in a fraction of the time', async (ctx) => {
    needsProjects(ctx);
    await model.close();
    const requests = model.requests.length;
    const before = seenRuns();
    const r = await child(projects.top, { OBS_EVAL_CACHE: 'replay' });
    expect(r.code, r.out).toBe(0);
    expect(model.requests.length).toBe(requests);
    await local.server.waitFor(() => [...newRuns(before).values()][0]?.length === 12);
    const [[replayRunId, replayRoots]] = [...newRuns(before)] as [[string, DecodedSpan[]]];
    expect(scoresByCountry(replayRoots)).toEqual(recorded.scores);
    expect(r.out).toContain('calls 12 replayed, 0 recorded (OBS_EVAL_CACHE=replay)');
    // Both runs side by side in the viewer's run comparison: 12 rows, the same averages.
    const compare = (await (await fetch(`${local.server.url}/viewer-api/compare?runs=${recorded.runId},${replayRunId}`)).json()) as {
      runs: Array<{ items: number; averages: Record<string, number> }>;
      rows: Array<{ results: Record<string, unknown> }>;
    };
    expect(compare.runs.map((run) => run.items)).toEqual([12, 12]);
    expect(compare.runs[1]!.averages).toEqual(compare.runs[0]!.averages);
    expect(compare.runs[0]!.averages['exact_match']).toBe(0.75);
    expect(compare.rows.filter((row) => Object.keys(row.results).length === 2)).toHaveLength(12);
    // The record spent 12 × 150 ms waiting for the model alone; the replay waits for none of it
    // (compared as a difference: a loaded machine slows both runs' own work alike).
    expect(recorded.itemMs).toBeGreaterThan(1800);
    expect(recorded.itemMs - r.itemMs).toBeGreaterThan(1500);
    console.log(`[@obs/vitest e2e] 12 items: recorded in ${Math.round(recorded.itemMs)} ms, replayed in ${Math.round(r.itemMs)} ms`);

    const nodeTest = await child(projects.top, { OBS_EVAL_CACHE: 'replay' }, 'evals/capitals.node-test.mjs');
    expect(nodeTest.code, nodeTest.out).toBe(0);
    expect(nodeTest.out).toContain('4 items, calls 4 replayed, 0 recorded (OBS_EVAL_CACHE=replay)');
    expect(model.requests.length).toBe(requests);
  }, 120_000);

  it('a threshold above the mean: exit code 1, one line with the score, its mean, the threshold and the previous mean', async (ctx) => {
    needsProjects(ctx);
    const requests = model.requests.length;
    const r = await child(projects.top, { OBS_EVAL_CACHE: 'replay', MIN: '0.9' });
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      'ThresholdError: describeEval "capitals": exact_match mean 0.75 is below the threshold 0.9 (previous run: 0.75)',
    );
    expect(r.out).toMatch(/FAIL .*capitals\.eval\.test\.ts > capitals > scores/);
    expect(r.out).toMatch(/Tests\s+1 failed \| 12 passed/);
    expect(model.requests.length).toBe(requests);
  }, 120_000);

  it('-t picks one item: its trace and scores still reach obs, the baseline file is left as it was', async (ctx) => {
    needsProjects(ctx);
    const baseline = join(projects.top, 'evals', '__obs_cache__', 'capitals.eval.test.ts.runs.json');
    const before = { runs: seenRuns(), baseline: readFileSync(baseline, 'utf8') };
    const r = await child(projects.top, { OBS_EVAL_CACHE: 'replay' }, undefined, ['-t', 'Kenya']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Tests\s+1 passed \| 12 skipped/);
    await local.server.waitFor(() => [...newRuns(before.runs).values()][0]?.length === 1);
    const [root] = [...newRuns(before.runs).values()][0]!;
    expect(scoresByCountry([root!])).toEqual({ Kenya: recorded.scores['Kenya'] });
    expect(readFileSync(baseline, 'utf8')).toBe(before.baseline);
  }, 120_000);

  it('.concurrent (concurrency 4, live calls): the same scores as the serial run, 4 requests in flight at most', async (ctx) => {
    needsProjects(ctx);
    await restartModel();
    model.latencyMs = 150;
    const before = seenRuns();
    const r = await child(projects.top, { OBS_EVAL_CACHE: 'off', CONCURRENCY: '4' });
    expect(r.code, r.out).toBe(0);
    expect(model.requests).toHaveLength(12);
    expect(model.maxInFlight).toBe(4);
    await local.server.waitFor(() => [...newRuns(before).values()][0]?.length === 12);
    expect(scoresByCountry([...newRuns(before).values()][0]!)).toEqual(recorded.scores);
  }, 120_000);

  it('a dataset run includes the item made from a production trace: every root linked to the dataset and its item', async (ctx) => {
    needsProjects(ctx);
    const client = local.handle.client;
    await client.api.datasets.create({ name: 'capitals' });
    for (const country of COUNTRIES) {
      await client.dataset.createItem({
        datasetName: 'capitals',
        id: `capital-${country.toLowerCase()}`,
        input: { country },
        expectedOutput: RIGHT[country],
      });
    }
    // A production answer that was wrong becomes a test case, corrected before saving.
    const traceId = await startActiveObservation('support-answer', async (root) => {
      root.update({ input: { country: 'Germany' }, output: 'Munich' });
      return root.traceId;
    });
    await local.handle.flush();
    const fromTrace = await client.dataset.createItemFromTrace(traceId, { dataset: 'capitals', expectedOutput: 'Berlin' });
    expect(fromTrace).toMatchObject({ input: { country: 'Germany' }, expectedOutput: 'Berlin', sourceTraceId: traceId });
    const dataset = await client.dataset.get('capitals');

    const before = seenRuns();
    const requests = model.requests.length;
    const r = await child(projects.top, { OBS_EVAL_CACHE: 'auto', DATA: 'dataset' });
    expect(r.code, r.out).toBe(0);
    // Only the new item's call went out; the other 12 were in the cassette.
    expect(model.requests.length - requests).toBe(1);
    expect(r.out).toContain('13 items, calls 12 replayed, 1 recorded (OBS_EVAL_CACHE=auto)');
    await local.server.waitFor(() => [...newRuns(before).values()][0]?.length === 13);
    const roots = [...newRuns(before).values()][0]!;
    for (const root of roots) expect(root.attributes['obs.experiment.dataset.id']).toBe(dataset.id);
    expect(roots.map((s) => s.attributes['obs.experiment.item.id']).sort()).toEqual(dataset.items.map((i) => i.id).sort());
    expect(scoresByCountry(roots)['Germany']).toEqual({ exact_match: 1, length: 6 });
    // The run is a dataset run in the server's experiments API.
    const experiments = await client.api.experiments.list({ datasetId: dataset.id });
    expect(experiments.data).toHaveLength(1);
  }, 120_000);
});

describe.for([
  ['floor', `vitest ${VITEST.floor}, the floor of the peer range`],
  ['middle', `vitest ${VITEST.middle}`],
] as const)('a fresh project on %s', ([project, label]) => {
  it(`${label}: a recording run (12 requests, its run in obs) whose threshold fails: exit 1 and the line`, async (ctx) => {
    await otherInstalls;
    needsProjects(ctx);
    const installed = JSON.parse(readFileSync(join(projects[project], 'node_modules', 'vitest', 'package.json'), 'utf8')).version as string;
    expect(installed.split('.')[0]).toBe(VITEST[project].split('.')[0]);
    model.latencyMs = 0;
    const requests = model.requests.length;
    const before = seenRuns();
    const r = await child(projects[project], { OBS_EVAL_CACHE: 'record', MIN: '0.8' });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain('describeEval "capitals": exact_match mean 0.75 is below the threshold 0.8');
    expect(r.out).toMatch(/Tests\s+1 failed \| 12 passed/);
    expect(model.requests.length - requests).toBe(12);
    await local.server.waitFor(() => [...newRuns(before).values()][0]?.length === 12);
    expect(scoresByCountry([...newRuns(before).values()][0]!)).toEqual(expectedScores(COUNTRIES));
    expect(existsSync(join(projects[project], 'evals', '__obs_cache__', 'capitals.eval.test.ts.json'))).toBe(true);
  }, 300_000);
});
