// @ts-check

/**
 * GET /api/fail: a handler NOT wrapped with withObs that throws. `onRequestError` (instrumentation.ts)
 * records it as an error observation named `GET /api/fail`.
 */
export async function GET() {
  throw new Error('unwrapped handler failed');
}
