import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NextConfig } from 'next';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

const nextConfig: NextConfig = {
  // The monorepo root holds node_modules (npm workspaces).
  outputFileTracingRoot: root,
  turbopack: { root },
};

export default nextConfig;
