import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

// The test app of @obs/sveltekit: adapter-node, SvelteKit's own tracing on (its load, action and endpoint spans).
export default defineConfig({ plugins: [sveltekit({ adapter: adapter(), tracing: { server: true } })], logLevel: 'warn' });
