/**
 * What the @obs/google-genai tests share: the local obs server with obs initialised against it,
 * the stand-in Gemini API, the two ends of the peer range (`@google/genai` 3.x and 1.0), and
 * `traced(fn)`, which runs `fn` under a root observation and returns what arrived on the server
 * below that root (every span checked to hang under it, and none holding the API key).
 */
import { GoogleGenAI as GoogleGenAI3 } from '@google/genai';
import { initObs, startActiveObservation } from '@obs/core';
import { initTestObs, setupWrapperTest } from '@obs/local-server/testing';
import { GoogleGenAI as GoogleGenAI1 } from 'google-genai-1';
import { startFakeGemini } from './fake-gemini.js';

export const API_KEY = 'AIza-test-DO-NOT-EXPORT-51f0';

/** Both ends of the peer range. */
export const SDKS = [
  ['@google/genai 3.x', GoogleGenAI3],
  ['@google/genai 1.0', GoogleGenAI1 as unknown as typeof GoogleGenAI3],
] as const;

export function setup() {
  return setupWrapperTest({ init: initTestObs(initObs), start: startActiveObservation, standIn: startFakeGemini, secret: 'DO-NOT-EXPORT' });
}

export { obsAttr as attr, obsEnding, obsJson as json, readStream } from '@obs/local-server/testing';
