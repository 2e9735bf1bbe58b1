/**
 * `@obs/lambda`: one line to trace an AWS Lambda handler (Node.js) into obs, every span of an
 * invocation delivered before the invocation ends (Lambda freezes the sandbox right after).
 *
 * @example
 * ```ts
 * import { wrapHandler } from '@obs/lambda';
 *
 * export const handler = wrapHandler(async (event: { body?: string }) => ({
 *   statusCode: 200,
 *   body: JSON.stringify({ answer: await answer(event.body) }),
 * }));
 * ```
 *
 * @packageDocumentation
 */
export { wrapHandler } from './wrap-handler.js';
export type { ObsLambdaOptions, LambdaContextLike } from './options.js';
