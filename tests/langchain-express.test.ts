/**
 * Cross-package: a LangChain chain traced by @obs/langchain inside an @obs/express request nests
 * under the request's root observation and carries what the request's identify() returned.
 */
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { initObs } from '@obs/core';
import { obsErrorHandler, obsMiddleware } from '@obs/express';
import { CallbackHandler } from '@obs/langchain';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer } from '@obs/local-server/testing';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

const local = setupObsServer({ reset: false, init: (c) => initObs({ ...c, flushInterval: 0.05, flushOnExit: false }) });

function app(handler: CallbackHandler) {
  const chain = ChatPromptTemplate.fromMessages([['human', 'Answer ticket {id}: {question}']])
    .pipe(new FakeListChatModel({ responses: ['Refund approved.'], sleep: 5 }))
    .pipe(new StringOutputParser());
  const a = express();
  a.use(obsMiddleware({ identify: (req) => ({ userId: String(req.headers['x-user'] ?? 'anonymous'), tags: ['api'] }) }));
  a.use(express.json());
  a.post('/chat/:id', async (req, res) => {
    const answer = await chain.invoke({ id: req.params.id, question: req.body.question }, { callbacks: [handler] });
    res.json({ answer });
  });
  a.use(obsErrorHandler());
  return a;
}

const attr = (s: DecodedSpan | undefined, k: string) => s?.attributes[k];

/**
 * How far the wall clock and the monotonic clock moved apart while `fn` ran, in ms: span times
 * are the monotonic clock plus a wall-clock offset re-read once a second (and OpenTelemetry's SDK
 * anchors each trace to `Date.now()`), so two spans of one request can disagree by this much plus
 * `Date.now()`'s 1 ms step. Sampled every few ms, on this machine, in this run.
 */
async function clockSpread<T>(fn: () => Promise<T>): Promise<{ result: T; spreadMs: number }> {
  let least = Number.POSITIVE_INFINITY;
  let most = Number.NEGATIVE_INFINITY;
  const sample = () => {
    const offset = Date.now() - performance.now();
    least = Math.min(least, offset);
    most = Math.max(most, offset);
  };
  sample();
  const timer = setInterval(sample, 5);
  try {
    return { result: await fn(), spreadMs: most - least };
  } finally {
    clearInterval(timer);
    sample();
  }
}

describe('@obs/langchain inside an @obs/express request', () => {
  it('each request’s chain nests under its own root observation and carries identify()’s user, 4 concurrent requests', async () => {
    for (const background of [false, true]) {
      local.server.reset();
      const handler = new CallbackHandler({ sessionId: 'support-session', background });
      const a = app(handler);
      const { result: responses, spreadMs } = await clockSpread(() =>
        Promise.all(
          [1, 2, 3, 4].map((i) =>
            request(a)
              .post(`/chat/${i}`)
              .set('x-user', `user-${i}`)
              .send({ question: `refund ${i}?` }),
          ),
        ),
      );
      // The clocks' own disagreement in this run, plus the wall clock's 1 ms step.
      const slackMs = 1 + Math.max(spreadMs, 1);
      for (const r of responses) expect(r.body).toEqual({ answer: 'Refund approved.' });
      await handler.flush();
      const spans = local.server.spans();

      for (const [idx, r] of responses.entries()) {
        const i = idx + 1;
        const traceId = r.headers['x-obs-trace-id'] as string;
        expect(traceId).toMatch(/^[0-9a-f]{32}$/);
        const trace = spans.filter((s) => s.traceId === traceId);
        const root = trace.find((s) => s.name === 'POST /chat/:id');
        expect(root, `request ${i} root`).toBeDefined();
        expect(root!.parentSpanId).toBeUndefined();
        const chain = trace.find((s) => s.name === 'RunnableSequence');
        expect(chain, `chain of request ${i}`).toBeDefined();
        expect(chain!.parentSpanId).toBe(root!.spanId);
        expect(JSON.parse(attr(chain, 'obs.observation.input') as string)).toEqual({ id: String(i), question: `refund ${i}?` });
        const runs = trace.filter((s) => s.parentSpanId === chain!.spanId);
        expect(runs.map((s) => s.name).sort()).toEqual(['ChatPromptTemplate', 'FakeListChatModel', 'StrOutputParser']);
        for (const s of [chain!, ...runs]) {
          expect(attr(s, 'user.id'), s.name).toBe(`user-${i}`);
          expect(attr(s, 'session.id'), s.name).toBe('support-session');
          expect(attr(s, 'obs.trace.tags'), s.name).toEqual(expect.arrayContaining(['api']));
        }
        // Inline callbacks: the chain's observations end within the request's, up to how far the
        // clocks moved apart in this run (`clockSpread`).
        if (!background) {
          for (const s of [chain!, ...runs]) {
            expect(Number(s.endTimeUnixNano - root!.endTimeUnixNano) / 1e6, `${s.name} ends within request ${i}`).toBeLessThanOrEqual(
              slackMs,
            );
            expect(Number(root!.startTimeUnixNano - s.startTimeUnixNano) / 1e6, `${s.name} starts within request ${i}`).toBeLessThanOrEqual(
              slackMs,
            );
          }
        }
      }
      expect(handler.openRuns).toBe(0);
    }
  });
});
