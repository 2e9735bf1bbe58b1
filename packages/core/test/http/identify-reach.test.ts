/**
 * identify reaches every span of the request: with an async identify (a DB lookup), spans
 * started and ended while it was pending carry user, session, tags and metadata too, merged
 * with their own tags; 200 concurrent requests, counted span by span.
 */
import { context } from '@opentelemetry/api';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { initObs, propagateAttributes, startObservation } from '../../src/index.js';
import { HttpObserver } from '../../src/http/index.js';

const local = setupObsServer({ reset: false, init: (c) => initObs({ ...c, flushOnExit: false }) });

type Req = { n: number; headers: Record<string, string> };
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('async identify', () => {
  it('200 concurrent requests: every span (early, late, child with own tags) carries its request identity', async () => {
    const observer = new HttpObserver<Req>({
      identify: async (req) => {
        await delay(5 + (req.n % 7) * 3);
        return { userId: `user-${req.n}`, sessionId: `session-${req.n}`, tags: ['identified'], metadata: { plan: `plan-${req.n}` } };
      },
    });
    const requests = Array.from({ length: 200 }, async (_, n) => {
      const ro = observer.start({ req: { n, headers: {} }, method: 'GET', path: `/r/${n}` });
      ro.setRoute('/r/:n');
      await context.with(ro.context, async () => {
        // Starts (and ends) before identify resolved.
        startObservation(`early-${n}`, {}, { asType: 'span' }).end();
        // Its own tags (as a LangChain run has) are merged with identify's.
        const tagged = propagateAttributes({ tags: ['own'] }, () => startObservation(`tagged-${n}`));
        await delay(2);
        tagged.end();
        await delay(40);
        startObservation(`late-${n}`).end();
      });
      ro.finish({ statusCode: 200 });
    });
    await Promise.all(requests);
    await local.handle.flush();
    const spans = local.server.spans();
    expect(spans).toHaveLength(800);
    const missing = spans.filter((s) => {
      const n = Number(/(\d+)$/.exec(s.name === 'GET /r/:n' ? String(s.attributes['url.path']) : s.name)?.[1]);
      return (
        s.attributes['user.id'] !== `user-${n}` ||
        s.attributes['session.id'] !== `session-${n}` ||
        s.attributes['obs.trace.metadata.plan'] !== `plan-${n}`
      );
    });
    expect(missing.map((s) => s.name)).toEqual([]);
    for (const s of spans.filter((x) => x.name.startsWith('tagged-'))) {
      expect([...(s.attributes['obs.trace.tags'] as string[])].sort()).toEqual(['identified', 'own']);
    }
  });
});
