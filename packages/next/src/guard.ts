/**
 * The one `AdapterGuard` of `@obs/next`: `registerObs`, `withObs`, `onRequestError` and the span
 * processors run their work through it, so a bug of the adapter is one warning and never the app's error.
 */
import { AdapterGuard } from '@obs/core/kit';

export const guard = new AdapterGuard('@obs/next');
