/**
 * `@obs/bedrock`: `observeBedrock(new BedrockRuntimeClient())` makes every Converse,
 * ConverseStream, InvokeModel and InvokeModelWithResponseStream call of an AWS Bedrock Runtime
 * client an obs generation, nested under the active observation.
 *
 * @packageDocumentation
 */
export { observeBedrock, type ObserveBedrockOptions } from './observe-bedrock.js';
