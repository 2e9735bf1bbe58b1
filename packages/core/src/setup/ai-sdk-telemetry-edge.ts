/**
 * What edge bundles get in place of `ai-sdk-telemetry.ts` (`scripts/bundle.mjs` swaps the file for
 * the `edge-light` and `workerd` doors): the Node.js module resolution that finds the
 * app's `ai` and `@ai-sdk/otel` from its entry script and working directory (`process.argv`,
 * `process.cwd()`, `createRequire`) cannot run on an edge runtime, where the stand-in is never
 * registered anyway, so it is not shipped there at all: Next.js then has no Node.js API to warn
 * about in an Edge route, and nothing obs resolves at run time reaches an edge bundle. An app on
 * the edge registers the AI SDK's integration itself (`AI_SDK_TELEMETRY_LINE`).
 */

/** The edge runtime's stand-in registration: nothing to register, nothing to remove. */
export function registerAiSdkTelemetry(): () => void {
  return noop;
}

function noop(): void {}
