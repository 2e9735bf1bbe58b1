/**
 * Under the freeze harness: a real child process runs the handler in a stand-in of Lambda's
 * Node.js runtime (test/runtime/lambda-runtime.mjs) and stops itself (SIGSTOP) the instant each
 * invocation settles; the next invocation thaws it (SIGCONT); SIGKILL ends it, as a reclaimed
 * sandbox. Each invocation's trace is looked up at the local obs server by its request id while
 * the process is frozen, children and errors included. `@obs/lambda` delivers every one before it
 * settles; plain `@obs/core` (initObs + startActiveObservation) is measured the same way.
 */
import path from 'node:path';
import type { DecodedSpan, ObsServer } from '@obs/local-server';
import { FreezeHarness } from '@obs/local-server/freeze';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { functionUrlEvent, httpApiEvent, sqsEvent } from './fixtures/events.js';

const local = setupObsServer();
const RUNTIME = path.join(import.meta.dirname, 'runtime/lambda-runtime.mjs');
const HANDLERS = path.join(import.meta.dirname, 'runtime/handlers.mjs');

/** One function: the runtime started with `module`'s `exportName` as the handler, frozen between invocations. */
async function startFunction(module: string, exportName: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...local.server.env, AWS_LAMBDA_FUNCTION_NAME: 'chat-fn' };
  for (const key of Object.keys(env)) if (key.startsWith('OBS_') && !(key in local.server.env)) delete env[key];
  const harness = FreezeHarness.spawn(process.execPath, [RUNTIME, module, exportName], { env });
  await harness.next('ready', 20_000);
  let n = 0;
  return {
    harness,
    /**
     * One invocation: `idleMs` frozen (the time between invocations, which the platform does not
     * run the process in), then thaw, invoke, and wait until it settled and the process is frozen again.
     */
    async invoke(event: unknown, idleMs = 0) {
      const id = `${exportName}-${++n}`;
      if (idleMs > 0) await new Promise((r) => setTimeout(r, idleMs));
      harness.thaw();
      harness.send({ id, event, timeoutMs: 3000 });
      const settled = await harness.settled();
      expect(settled.id).toBe(id);
      return { id, settled };
    },
  };
}

/** The trace of the invocation `id` (its root carries the request id), or undefined when the server has none. */
function traceOfInvocation(server: ObsServer, id: string): DecodedSpan[] | undefined {
  const root = server.spans().find((s) => s.attributes['faas.invocation_id'] === id);
  return root ? server.spansByTrace(root.traceId) : undefined;
}

describe('@obs/lambda under the freeze harness', () => {
  it('50 invocations (HTTP, errors, SQS batches, callback and streamed answers), each whole on the server while its process is frozen; 0 lost at SIGKILL', async () => {
    const expected = new Map<string, number>();
    const check = (id: string, spans: number) => {
      // Frozen now: only what the invocation delivered before it settled can be there.
      expect(traceOfInvocation(local.server, id)?.length, `trace of ${id} while frozen`).toBe(spans);
      expected.set(id, spans);
    };

    const chat = await startFunction(HANDLERS, 'chat');
    for (let i = 0; i < 20; i++) {
      const crash = i % 5 === 4;
      const { id, settled } = await chat.invoke(httpApiEvent('POST /chat/{id}', `/chat/${i}`, { message: crash ? 'crash' : `q${i}` }));
      if (crash) {
        expect(settled.error).toEqual({ errorType: 'Error', errorMessage: 'model unavailable' });
        check(id, 1);
        expect(traceOfInvocation(local.server, id)![0]!.attributes['obs.observation.level']).toBe('ERROR');
      } else {
        expect(JSON.parse((settled.result as { body: string }).body)).toEqual({ answer: `echo: q${i}` });
        check(id, 2);
      }
    }
    await chat.harness.kill();

    const batch = await startFunction(HANDLERS, 'batch');
    for (let i = 0; i < 10; i++) {
      const { id } = await batch.invoke(sqsEvent('orders', [`a${i}`, `b${i}`, `c${i}`]));
      // The root, one child per message, one answer per message.
      check(id, 7);
    }
    await batch.harness.kill();

    const callback = await startFunction(HANDLERS, 'callback');
    for (let i = 0; i < 10; i++) {
      const { id, settled } = await callback.invoke({ n: i });
      expect(settled.result).toBe(`echo: ${i}`);
      check(id, 2);
    }
    await callback.harness.kill();

    const stream = await startFunction(HANDLERS, 'stream');
    for (let i = 0; i < 10; i++) {
      const { id, settled } = await stream.invoke(functionUrlEvent('GET', '/answer'));
      const body = Buffer.from(settled.body as string, 'base64').toString('utf8');
      expect(body).toContain('data: Five ');
      check(id, 2);
      const root = traceOfInvocation(local.server, id)!.find((s) => s.name === 'GET /answer')!;
      // The output is what the stream sent after its HTTP prelude, reassembled.
      expect(body.endsWith(root.attributes['obs.observation.output'] as string)).toBe(true);
      const sse = 'Five facts about Lisbon: old, large, loved, busy, green.'.split(' ').map((w) => `data: ${w} \n\n`);
      expect(root.attributes['obs.observation.output']).toBe(sse.join(''));
      expect(root.attributes['http.response.status_code']).toBe(200);
    }
    await stream.harness.kill();

    expect(expected.size).toBe(50);
    // Killed: nothing else can arrive. Every invocation's trace, and not one span more.
    for (const [id, spans] of expected) expect(traceOfInvocation(local.server, id)?.length, id).toBe(spans);
    expect(local.server.spans()).toHaveLength([...expected.values()].reduce((a, b) => a + b, 0));
    expect(local.server.traceIds()).toHaveLength(50);
  }, 90_000);

  it('plain @obs/core (initObs + startActiveObservation, no wrapper) under the same harness: what it delivers while frozen, and what it loses', async () => {
    const plain = await startFunction(path.join(import.meta.dirname, 'runtime/plain-core.mjs'), 'handler');
    const traceIds: string[] = [];
    let deliveredWhileFrozen = 0;
    for (let i = 0; i < 50; i++) {
      // 60 ms between invocations: the batch's 1 s timer comes due every ~16 of them, and fires in the next one.
      const { settled } = await plain.invoke(httpApiEvent('POST /chat/{id}', `/chat/${i}`, { message: `q${i}` }), 60);
      const traceId = (settled.result as { headers: Record<string, string> }).headers['x-obs-trace-id']!;
      traceIds.push(traceId);
      if (local.server.spansByTrace(traceId).length === 2) deliveredWhileFrozen++;
    }
    await plain.harness.kill();
    const arrived = traceIds.filter((id) => local.server.spansByTrace(id).length === 2).length;
    console.log(
      `[freeze] plain @obs/core: ${deliveredWhileFrozen} of 50 invocations delivered while frozen; ${arrived} arrived in a later invocation's time; ${50 - arrived} lost for good at SIGKILL`,
    );
    // The batch leaves on its timer, which runs only in a later invocation: never within its own.
    expect(deliveredWhileFrozen).toBeLessThan(50);
    // The last invocations have no later one: killed frozen, their spans never leave.
    expect(arrived).toBeLessThan(50);
    expect(arrived).toBeGreaterThan(0);
  }, 60_000);
});
