/**
 * `@obs/anthropic`: `observeAnthropic(new Anthropic())` makes every Messages API call of an
 * Anthropic SDK client an obs generation, nested under the active observation.
 *
 * @packageDocumentation
 */
export { observeAnthropic, type ObserveAnthropicOptions } from './observe-anthropic.js';
