// @sentry/node with its defaults: init with a DSN (the runner's envelope sink), tracing on, one
// span, flush.
import * as Sentry from '@sentry/node';

globalThis.coldMark?.('imported');
Sentry.init({ dsn: process.env.SENTRY_DSN, tracesSampleRate: 1 });
globalThis.coldMark?.('init');
Sentry.startSpan({ name: 'cold-start' }, (span) => span.setAttribute('input', 'one'));
globalThis.coldMark?.('span');
await Sentry.flush(5000);
