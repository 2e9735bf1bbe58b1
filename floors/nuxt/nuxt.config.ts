// The floor app of @obs/nuxt: Nuxt 3.9.1 on Nitro 2.8.1 and h3 1.10.0 (Nitro's node-server preset).
// The builder is handed over as a module: Nuxt 3.9 looks `@nuxt/vite-builder` up from the folder
// above its root (it would find the workspace root's Nuxt 4 builder), this app's own is 3.9.1.
import * as viteBuilder from '@nuxt/vite-builder';

export default defineNuxtConfig({ devtools: { enabled: false }, telemetry: false, builder: viteBuilder });
