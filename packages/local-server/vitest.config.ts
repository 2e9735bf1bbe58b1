import { packageConfig } from '../../vitest.shared.js';

// The server alone: no tracer provider of obs is involved.
export default packageConfig(import.meta.dirname, { providers: false });
