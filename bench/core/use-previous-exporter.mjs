// Runs a bench with @obs/core's previous OTLP exporter (previous-exporter.mjs: the official
// ProtobufTraceSerializer + gzip + fetch) in place of the current one, everything else unchanged,
// for before/after comparisons on one build:
//
//   node --import ./bench/core/use-previous-exporter.mjs --expose-gc bench/langchain/run.mjs
//   node bench/express/run.mjs --node-args='--import ./bench/core/use-previous-exporter.mjs' ...
//
// This file is both the --import entry (it registers itself) and the module resolution hook.
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const previous = new URL('./previous-exporter.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.endsWith('/packages/core/dist/export/otlp-exporter.js') && context.parentURL !== previous) {
    return { ...resolved, url: previous };
  }
  return resolved;
}

// Loaded again in the hooks thread, where it only provides `resolve`.
if (isMainThread) register(import.meta.url);
