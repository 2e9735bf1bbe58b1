// One Nest in the process, as in a real app. The Nest apps run on the Nest 11 installed in tests/
// (OpenTelemetry's nestjs-core instrumentation patches `>=4.0.0 <12` only), while the workspace's
// @obs/nest would resolve the repository's Nest 12: every `@nestjs/*` import, @obs/nest's
// included, resolves from here instead.
const { registerHooks } = require('node:module');
const { pathToFileURL } = require('node:url');

const here = pathToFileURL(__filename).href;
registerHooks({
  resolve: (specifier, context, nextResolve) =>
    nextResolve(specifier, specifier.startsWith('@nestjs/') ? { ...context, parentURL: here } : context),
});
