/**
 * What the @obs/anthropic tests share: the local obs server with obs initialised against it, the
 * stand-in Anthropic API, the two SDK majors (1.x and the 0.x floor of the peer range), and
 * `traced(fn)`, which runs `fn` under a root observation and returns what arrived on the server
 * below that root (every span checked to hang under it, and none holding the API key).
 */
import Anthropic1 from '@anthropic-ai/sdk';
import { initObs, startActiveObservation } from '@obs/core';
import { initTestObs, setupWrapperTest } from '@obs/local-server/testing';
import Anthropic0 from 'anthropic-sdk-0';
import { startFakeAnthropic } from './fake-anthropic.js';

export const API_KEY = 'sk-ant-test-DO-NOT-EXPORT-7c1e';

/** Both ends of the peer range. */
export const SDKS = [
  ['@anthropic-ai/sdk 1.x', Anthropic1],
  ['@anthropic-ai/sdk 0.50', Anthropic0 as unknown as typeof Anthropic1],
] as const;

export function setup() {
  return setupWrapperTest({
    init: initTestObs(initObs),
    start: startActiveObservation,
    standIn: startFakeAnthropic,
    secret: 'DO-NOT-EXPORT',
  });
}

export { obsAttr as attr, obsEnding, obsJson as json, readStream } from '@obs/local-server/testing';
