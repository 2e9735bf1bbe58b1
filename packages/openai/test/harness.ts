/**
 * What the @obs/openai tests share: the local obs server with obs initialised against it, a
 * fake OpenAI endpoint, and `traced(fn)`, which runs `fn` under a root observation and returns
 * what arrived on the server below that root (every span checked to hang under it).
 */
import { initObs, startActiveObservation } from '@obs/core';
import { initTestObs, setupWrapperTest } from '@obs/local-server/testing';
import { startFakeOpenAI } from './fake-openai.js';

export const API_KEY = 'sk-test-DO-NOT-EXPORT-4f2a9c';

export function setup() {
  return setupWrapperTest({ init: initTestObs(initObs), start: startActiveObservation, standIn: startFakeOpenAI, secret: 'DO-NOT-EXPORT' });
}

export { obsAttr as attr, obsEnding, obsJson as json, readStream } from '@obs/local-server/testing';
