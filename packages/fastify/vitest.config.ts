import { packageConfig } from '../../vitest.shared.js';

// Every test on both tracer providers (obs's light one, OpenTelemetry's SDK one).
export default packageConfig(import.meta.dirname);
