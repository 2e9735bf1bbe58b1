/**
 * The `sdk-provider` test project's set-up (vitest.shared.ts): obs builds its own tracer provider
 * as OpenTelemetry's `NodeTracerProvider` instead of its light one, so every test that goes
 * through `initObs` also runs with SDK spans (as obs sees them next to an OpenTelemetry SDK,
 * Sentry or `@vercel/otel`). Set through the global seam obs reads, so it reaches whichever copy
 * of `@obs/core` a test imports (source or built).
 */
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

(globalThis as Record<symbol, unknown>)[Symbol.for('obs.test.ownProviderFactory')] = (
  settings: ConstructorParameters<typeof NodeTracerProvider>[0],
) => new NodeTracerProvider(settings);
