/**
 * Which instrumentation scopes are frameworks' (left out of obs by default, never obs parents):
 * the web frameworks' of the foreign-tracer e2e scenarios included (tests/foreign-tracers.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { isDefaultExportSpan } from '../../src/export/pipeline/span-filter.js';
import type { ReadableSpan } from '../../src/tracing/sdk-types.js';
import { isFrameworkScope, isLlmScope } from '../../src/tracing/scopes.js';

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

describe('OpenInference spans under the default filter', () => {
  const span = (scope: string, attributes: Record<string, unknown>) =>
    ({ instrumentationScope: { name: scope }, attributes }) as unknown as ReadableSpan;

  it.each([
    '@arizeai/openinference-instrumentation-openai',
    '@arizeai/openinference-instrumentation-anthropic',
    '@arizeai/openinference-instrumentation-bedrock',
    'openinference.instrumentation.langchain',
  ])('%s is an LLM scope, its spans exported', (scope) => {
    expect(isLlmScope(scope)).toBe(true);
    expect(isDefaultExportSpan(span(scope, {}))).toBe(true);
  });

  it('a span of any other scope with openinference.span.kind is exported; without it, not', () => {
    expect(isDefaultExportSpan(span('my-oi-tracer', { 'openinference.span.kind': 'LLM' }))).toBe(true);
    expect(isDefaultExportSpan(span('my-oi-tracer', { 'llm.model_name': 'x' }))).toBe(false);
  });
});
