/** Types of worker-bundle.mjs (a JavaScript module so bench/edge-size can import it too). */
export function bundleWorker(entry: string, options?: { minify?: boolean }): Promise<string>;
