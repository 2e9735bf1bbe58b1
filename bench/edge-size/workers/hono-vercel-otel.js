// The hello-world Hono Worker traced with @vercel/otel (its edge build) and Hono's own OpenTelemetry
// middleware, @hono/otel: a span per request, exported over OTLP.
import { httpInstrumentationMiddleware } from '@hono/otel';
import { registerOTel } from '@vercel/otel';
import { Hono } from 'hono';

registerOTel({ serviceName: 'hello' });

const app = new Hono();
app.use(httpInstrumentationMiddleware());
app.get('/', (c) => c.text('hello'));
export default app;
