import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The monorepo root holds node_modules (npm workspaces).
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export default { outputFileTracingRoot: root, turbopack: { root } };
