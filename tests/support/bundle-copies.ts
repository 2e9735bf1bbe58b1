/**
 * How many copies of `@obs/core` and of `@opentelemetry/api` a server bundle holds: each copy
 * folded into one of its files counts once (core's bundle makes its handle slot
 * `Symbol.for("obs.handle")` once, the API's registration says `Registration of version v` once),
 * and a package the bundle imports instead (kept external, loaded once from node_modules) counts
 * once as well. The bundler suites require exactly one of each per server bundle.
 */
export function bundleCopies(files: string[]): { core: number; api: number } {
  let core = 0;
  let api = 0;
  let importsCore = false;
  let importsApi = false;
  for (const text of files) {
    core += text.match(/Symbol\.for\(["']obs\.handle["']\)/g)?.length ?? 0;
    api += text.match(/Registration of version v/g)?.length ?? 0;
    importsCore ||= /(?:from\s*|import\(\s*|require\(\s*)["']@obs\/core(?:\/[a-z]+)?["']/.test(text);
    importsApi ||= /(?:from\s*|import\(\s*|require\(\s*)["']@opentelemetry\/api["']/.test(text);
  }
  return { core: core + (importsCore ? 1 : 0), api: api + (importsApi ? 1 : 0) };
}
