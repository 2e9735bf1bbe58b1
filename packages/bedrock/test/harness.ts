/**
 * What the @obs/bedrock tests share: the local obs server with obs initialised against it, the
 * stand-in Bedrock Runtime, both ends of the peer range (`@aws-sdk/client-bedrock-runtime` 3.x
 * current, on HTTP/2, and 3.588, the first with Converse, on HTTP/1.1), and `traced(fn)`, which
 * runs `fn` under a root observation and returns what arrived on the server below that root
 * (every span checked to hang under it, and none holding the credentials).
 */
import * as current from '@aws-sdk/client-bedrock-runtime';
import { initObs, startActiveObservation } from '@obs/core';
import { initTestObs, setupWrapperTest } from '@obs/local-server/testing';
import * as floor from 'bedrock-runtime-3-588';
import { startFakeBedrock } from './fake-bedrock.js';

export const CREDENTIALS = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-DO-NOT-EXPORT-9a2c' };

/** Both ends of the peer range, with the HTTP version each speaks by default. */
export const SDKS = [
  ['client-bedrock-runtime 3.x', current, '2.0'],
  ['client-bedrock-runtime 3.588', floor as unknown as typeof current, '1.1'],
] as const;

export function setup() {
  return setupWrapperTest({
    init: initTestObs(initObs),
    start: startActiveObservation,
    standIn: startFakeBedrock,
    secret: 'DO-NOT-EXPORT',
  });
}

export { obsAttr as attr, obsEnding, obsJson as json, readStream } from '@obs/local-server/testing';
/** A client of `sdk` against the stand-in; destroy it after use (HTTP/2 sessions stay open). */
export function clientOf<T extends typeof current>(sdk: T, url: string): current.BedrockRuntimeClient {
  return new sdk.BedrockRuntimeClient({ region: 'us-east-1', endpoint: url, credentials: CREDENTIALS, maxAttempts: 1 });
}
