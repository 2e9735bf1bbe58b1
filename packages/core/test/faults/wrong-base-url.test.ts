/**
 * A base URL with no obs server behind it answers 404 to every export and score batch. A 404 is
 * refused for good (retrying cannot fix configuration), and said as the losses of a refusal are:
 * one line per report interval, not one per batch, and that line names the fix (check
 * OBS_BASE_URL). Once the address answers again, new spans and scores arrive.
 */
import { describe, expect, it } from 'vitest';
import { startObservation } from '../../src/index.js';
import { TRACES_PATH } from '../../src/kit.js';
import { steadyLoad } from './load.js';
import { faultRig } from './rig.js';

const setUp = faultRig({ publicKey: 'pk-404', secretKey: 'sk-404' });

describe('a base URL that answers 404', () => {
  it('the losses are said once per interval, for spans and for scores, with the fix: check OBS_BASE_URL', async () => {
    const {
      server: s,
      tracing,
      client,
      logs,
    } = await setUp({ backoffMs: 50, flushAt: 10, flushInterval: 0.05 }, { maxRetries: 0, flushAt: 5, flushInterval: 0.05 });
    s.injectFault({ status: 404, body: 'Not Found', durationMs: 60_000 });
    await steadyLoad({ spansPerSecond: 200, scoresPerSecond: 50, seconds: 0.5, client });
    await Promise.all([tracing.flush(), client.flush()]);
    const refused = (path: string) => s.requests.filter((r) => r.path === path && r.status === 404).length;
    // Many batches were refused...
    expect(refused(TRACES_PATH)).toBeGreaterThanOrEqual(5);
    expect(refused('/api/public/scores')).toBeGreaterThanOrEqual(3);
    // ...and each kind said so once, with the fix.
    const said = (unit: string) =>
      logs.filter((l) => l.level !== 'debug' && l.message.includes('404') && l.message.includes(` ${unit}: `)).map((l) => l.message);
    for (const unit of ['spans', 'scores']) {
      expect(said(unit), unit).toEqual([
        expect.stringMatching(new RegExp(`dropped \\d+ ${unit}: the server answers HTTP 404 .*check OBS_BASE_URL`)),
      ]);
    }
    // The address answers again: what comes now arrives.
    s.clearFaults();
    const after = startObservation('after-the-fix');
    after.end();
    client.score.create({ id: 'score-after', traceId: 'a'.repeat(32), name: 'after', value: 1 });
    await Promise.all([tracing.flush(), client.flush()]);
    expect(s.spans().map((span) => span.name)).toEqual(['after-the-fix']);
    expect(s.scores.map((score) => (score as { id?: string }).id)).toEqual(['score-after']);
  });
});
