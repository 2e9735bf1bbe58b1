// The floor app of @obs/nuxt: Nuxt 3.9.1 on Nitro 2.8.1 and h3 1.10.0 (Nitro's node-server preset).
export default defineNuxtConfig({ devtools: { enabled: false }, telemetry: false });
