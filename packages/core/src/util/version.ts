/** Version of the @obs/* packages, sent as `x-obs-sdk-version` and on the instrumentation scope. */
export const SDK_VERSION = '6.0.0';
/** Tracer name of every span the SDK makes (wire contract 1). */
export const SDK_TRACER_NAME = 'obs-sdk';
