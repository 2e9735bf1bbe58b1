/**
 * `@obs/mastra`: `ObsExporter`, a Mastra observability exporter that records agent runs, model
 * steps, tool calls and workflow runs as obs observations.
 *
 * @packageDocumentation
 */
export { ObsExporter, type ObsExporterOptions } from './exporter.js';
