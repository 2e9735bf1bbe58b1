// The test app of @obs/nuxt: a Nuxt 4 app whose server routes the suite calls (Nitro's node-server preset).
export default defineNuxtConfig({
  compatibilityDate: '2026-01-01',
  devtools: { enabled: false },
  telemetry: false,
});
