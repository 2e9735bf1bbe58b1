import adapter from '@sveltejs/adapter-node';

// The floor app of @obs/sveltekit: SvelteKit 2.0.0 (its adapter in svelte.config, no tracing of its own).
export default { kit: { adapter: adapter() } };
