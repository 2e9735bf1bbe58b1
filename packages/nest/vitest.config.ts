import swc from 'unplugin-swc';
import { packageConfig } from '../../vitest.shared.js';

// Every test on both tracer providers (obs's light one, OpenTelemetry's SDK one). Nest needs
// decorator metadata (`design:paramtypes`), which esbuild does not emit: SWC compiles the tests
// with the decorator settings of tsconfig.json (Nest's documented vitest setup).
export default packageConfig(import.meta.dirname, { plugins: [swc.vite({ module: { type: 'es6' } })] });
