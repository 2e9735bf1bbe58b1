// CPU per request of core's request observation, in-process and without HTTP: what every
// adapter pays on top of the framework, measured precisely enough (a few tenths of a µs) to
// compare changes to core, which the HTTP benchmarks' noise hides. Each iteration is one
// request of the Express bench: the root observation (route, JSON input and output, status), a
// child span started through the OpenTelemetry API inside the root's context, and the export of
// both to the local obs server (another process). The floor variant is two bare spans of the
// registered provider (obs's light provider since issue 16; root + child, `context.with`) through
// the same span processor and exporter; `core-identify` adds an `identify` (user and session).
//
//   node bench/core/request-path.mjs [iterations=50000] [repetitions=7]
//   (ONLY=core, ONLY=core-identify or ONLY=otel-floor runs one variant, e.g. under --cpu-prof)
import { once } from 'node:events';
import { context, trace } from '@opentelemetry/api';
import { getObsHandle, initObs } from '@obs/core';
import { HttpObserver } from '@obs/core/http';
import { median, startObsServerProcess } from '../lib/http-rounds.mjs';

const [iterations = '50000', reps = '7'] = process.argv.slice(2);
const N = Number(iterations);
const { child: obsServer, conn } = await startObsServerProcess();
Object.assign(process.env, {
  OBS_BASE_URL: conn.url,
  OBS_PUBLIC_KEY: conn.publicKey,
  OBS_SECRET_KEY: conn.secretKey,
  OBS_LOG_LEVEL: 'error',
});
initObs();
const handle = getObsHandle();
const appTracer = trace.getTracer('bench-app');
const obsTracer = trace.getTracer('obs-sdk');
const observer = new HttpObserver({ traceIdHeader: false });
const identifying = new HttpObserver({ traceIdHeader: false, identify: () => ({ userId: 'user-1', sessionId: 'session-1' }) });

const body = { message: 'hello' };
const query = {};
const answer = { answer: 'echo 42: hello' };
const req = { method: 'POST', url: '/chat/42', headers: {}, body, query };

function child() {
  const span = appTracer.startSpan('answer');
  span.end();
}

const variants = {
  /** Two bare SDK spans in context: the least an OTel-based tracer does for this request. */
  'otel-floor'() {
    const root = obsTracer.startSpan('POST /chat/:id');
    context.with(trace.setSpan(context.active(), root), child);
    root.end();
  },
  /** Core's RequestObservation, as the Express adapter drives it. */
  core() {
    const ro = observer.start({ req, method: 'POST', path: '/chat/42', deferIdentify: true });
    context.with(ro.context, child);
    ro.setRoute('/chat/:id');
    ro.setInput(body, query);
    ro.setOutput(answer, undefined, 'application/json');
    ro.finish({ statusCode: 200 });
  },
  /** The same with an `identify` returning a user and session (run lazily at the child span). */
  'core-identify'() {
    const ro = identifying.start({ req, method: 'POST', path: '/chat/42' });
    context.with(ro.context, child);
    ro.setRoute('/chat/:id');
    ro.setInput(body, query);
    ro.setOutput(answer, undefined, 'application/json');
    ro.finish({ statusCode: 200 });
  },
};

async function block(fn) {
  await handle.flush();
  const c0 = process.cpuUsage();
  // In slices, so the exporter's drains run between them as they would between requests.
  for (let done = 0; done < N; ) {
    const end = Math.min(N, done + 200);
    for (; done < end; done++) fn();
    await new Promise(setImmediate);
  }
  await handle.flush();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / N;
}

const names = Object.keys(variants).filter((n) => !process.env.ONLY || process.env.ONLY.split(',').includes(n));
const results = Object.fromEntries(names.map((n) => [n, []]));
for (const n of names) await block(variants[n]); // warm-up
for (let r = 0; r < Number(reps); r++) {
  for (let i = 0; i < names.length; i++) {
    const n = names[(i + r) % names.length];
    results[n].push(await block(variants[n]));
  }
}
console.log(`Node ${process.version}, ${N} requests x ${reps} repetitions, export to the local obs server included`);
const floor = results['otel-floor'] ? median(results['otel-floor']) : undefined;
for (const n of names) {
  const m = median(results[n]);
  const vs = floor === undefined || n === 'otel-floor' ? '' : `  (${m - floor >= 0 ? '+' : ''}${(m - floor).toFixed(2)} vs otel-floor)`;
  console.log(`${n.padEnd(11)} ${m.toFixed(2).padStart(6)} µs CPU/request${vs}  [${results[n].map((x) => x.toFixed(1)).join(', ')}]`);
}
await handle.shutdown();
obsServer.send('close');
await once(obsServer, 'exit');
