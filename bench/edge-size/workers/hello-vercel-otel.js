// The hello-world Worker traced with @vercel/otel (its edge build): one span per request, exported over OTLP.
import { trace } from '@opentelemetry/api';
import { registerOTel } from '@vercel/otel';

registerOTel({ serviceName: 'hello' });

export default {
  fetch: () =>
    trace.getTracer('hello').startActiveSpan('hello', (span) => {
      span.end();
      return new Response('hello');
    }),
};
