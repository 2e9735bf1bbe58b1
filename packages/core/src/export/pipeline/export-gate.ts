/**
 * Which ended spans leave the process, and in what form: the export filter (`shouldExportSpan`,
 * framework spans when kept), the user's mask (at the span's end, on the values as the app gave
 * them, base64 media included), and the per-value size cap (just before encoding, after media
 * was replaced by its references, so a 1 MB image is uploaded, not cut).
 */
import type { ReadableSpan } from '../../tracing/sdk-types.js';
import { logger } from '../../util/logger.js';
import type { FrameworkSpansMode } from './foreign-spans.js';
import { applyMask, type MaskFunction } from './mask.js';
import { isFrameworkScope } from '../../tracing/scopes.js';
import { isDefaultExportSpan } from './span-filter.js';
import { capAttributeValues } from './value-cap.js';

export class ExportGate {
  constructor(
    private readonly shouldExport: (params: { otelSpan: ReadableSpan }) => boolean = ({ otelSpan }) => isDefaultExportSpan(otelSpan),
    private readonly frameworkSpans: FrameworkSpansMode,
    private readonly mask: MaskFunction | undefined,
    private readonly maxValueChars: number,
  ) {}

  /** Whether the span is exported; a throwing filter exports it (and says so). */
  accepts(span: ReadableSpan): boolean {
    try {
      const keptFramework = this.frameworkSpans === 'export' && isFrameworkScope(span.instrumentationScope?.name ?? '');
      return keptFramework || this.shouldExport({ otelSpan: span });
    } catch (err) {
      logger.warn(`shouldExportSpan threw; span "${span.name}" exported anyway (${String(err)})`);
      return true;
    }
  }

  /** Masks the span's input, output and metadata values, in place. */
  applyMask(span: ReadableSpan): void {
    if (this.mask) applyMask(span.attributes as Record<string, never>, this.mask);
  }

  /** Cuts the span's input, output and metadata values to the cap, in place. */
  cap(span: ReadableSpan): void {
    capAttributeValues(span.attributes as Record<string, never>, this.maxValueChars);
  }
}
