import { packageConfig } from '../../vitest.shared.js';

// Every test on obs's light tracer provider; the Node.js ones on OpenTelemetry's SDK provider
// too (Bun, Deno and workerd start their own processes: once is enough for them).
export default packageConfig(import.meta.dirname, { providers: { sdkInclude: ['test/node.test.ts'] }, hookTimeout: 120_000 });
