import { defineConfig } from 'vitest/config';
import { frameworkSuiteConfig } from '../../tests/support/framework-app.js';
import { sharedReporters } from '../../vitest.shared.js';

export default defineConfig({ test: frameworkSuiteConfig(sharedReporters(import.meta.dirname)) });
