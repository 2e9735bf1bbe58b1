/**
 * Which instrumentation scopes are frameworks' (left out of obs by default, never obs parents):
 * the web frameworks' of the foreign-tracer e2e scenarios included (tests/foreign-tracers.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { isFrameworkScope } from '../../src/tracing/scopes.js';

describe('isFrameworkScope', () => {
  it.each([
    '@opentelemetry/instrumentation-http',
    '@opentelemetry/instrumentation-express',
    '@opentelemetry/instrumentation-nestjs-core',
    '@opentelemetry/instrumentation-fastify',
    '@fastify/otel',
    '@sentry/node',
    '@vercel/otel',
    'next.js',
  ])('%s is a framework scope', (scope) => {
    expect(isFrameworkScope(scope)).toBe(true);
  });

  it.each(['obs-sdk', 'ai', 'gen_ai', '@opentelemetry/instrumentation-openai', '@traceloop/instrumentation-openai', 'my-app'])(
    '%s is not',
    (scope) => {
      expect(isFrameworkScope(scope)).toBe(false);
    },
  );
});
