import { packageConfig } from '../../vitest.shared.js';

// Every test on obs's light tracer provider; the in-process ones on OpenTelemetry's SDK provider
// too (the freeze suite's functions run in child processes of their own: once is enough).
export default packageConfig(import.meta.dirname, { providers: { sdkInclude: ['test/wrap-handler.test.ts'] } });
