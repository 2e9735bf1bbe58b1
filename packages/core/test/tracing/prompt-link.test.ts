/** A prompt object from `client.prompt.get` links to a generation; a fallback prompt does not. */

import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { ObsClient } from '../../src/client/client.js';
import { startObservation } from '../../src/tracing/start.js';
import { attr, captureLogs, restoreLogger, TRACING_KEYS, tracingInit, warnings } from './harness.js';

const { server, handle: tracing } = await setupObsServer({ ...TRACING_KEYS, init: tracingInit() }).ready;

describe('linking prompts to generations', () => {
  it('a fetched prompt sets prompt name and version; a fallback sets neither', async () => {
    const client = new ObsClient({ baseUrl: server.url, publicKey: server.publicKey, secretKey: server.secretKey });
    await client.api.prompts.create({ name: 'linked', prompt: 'Hi {{x}}', labels: ['production'] });
    const prompt = await client.prompt.get('linked');
    const logs = captureLogs();
    const fallback = await client.prompt.get('absent', { fallback: 'Hi' }).finally(restoreLogger);
    expect(warnings(logs)).toHaveLength(1);
    startObservation('with-prompt', { prompt }, { asType: 'generation' }).end();
    startObservation('with-fallback', { prompt: fallback }, { asType: 'generation' }).end();
    await tracing.flush();
    const linked = server.spansByName('with-prompt')[0]!;
    expect(attr(linked, 'obs.observation.prompt.name')).toBe('linked');
    expect(attr(linked, 'obs.observation.prompt.version')).toBe(1);
    const unlinked = server.spansByName('with-fallback')[0]!;
    expect(unlinked.attributes).not.toHaveProperty('obs.observation.prompt.name');
    expect(unlinked.attributes).not.toHaveProperty('obs.observation.prompt.version');
  });
});
