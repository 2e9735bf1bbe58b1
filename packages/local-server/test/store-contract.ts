/**
 * What every implementation of the store seam (src/stores/types.ts) must do, as a suite any
 * implementation runs: `storeContract('memory', createMemoryStores)`; a persistent store adds
 * its own line to stores.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ObsStores, StoredDatasetItem, StoredMedia, StoredPrompt } from '../src/stores/types.js';
import type { AttrValue, DecodedSpan } from '../src/types.js';

const T1 = '1'.repeat(32);
const T2 = '2'.repeat(32);
const T3 = '3'.repeat(32);

/** A decoded span as the decoders make it; times in ms from an arbitrary origin. */
export function span(
  traceId: string,
  spanId: string,
  opts: { parent?: string; name?: string; start?: number; end?: number; attributes?: Record<string, AttrValue>; error?: boolean } = {},
): DecodedSpan {
  const start = BigInt(opts.start ?? 1000) * 1_000_000n;
  const end = BigInt(opts.end ?? opts.start ?? 1000) * 1_000_000n;
  return {
    traceId,
    spanId,
    ...(opts.parent !== undefined && { parentSpanId: opts.parent }),
    name: opts.name ?? spanId,
    kind: 1,
    startTimeUnixNano: start,
    endTimeUnixNano: end,
    startTime: new Date(Number(start / 1_000_000n)),
    endTime: new Date(Number(end / 1_000_000n)),
    durationMs: Number(end - start) / 1e6,
    attributes: opts.attributes ?? {},
    status: { code: opts.error ? 2 : 0 },
    events: [],
    links: [],
    scope: { name: 'obs-sdk' },
    resource: {},
    encoding: 'protobuf',
    compressed: false,
  };
}

export function storeContract(name: string, open: () => ObsStores): void {
  describe(`store contract: ${name}`, () => {
    let stores: ObsStores;
    beforeEach(() => {
      stores?.close();
      stores = open();
    });

    it('spans: kept in arrival order, by trace (any case), by name, trace ids first-seen; deleted by trace; cleared', () => {
      const { spans } = stores;
      spans.add([span(T1, 'a1', { name: 'root' }), span(T2, 'b1', { name: 'root' })]);
      spans.add([span(T1, 'a2', { parent: 'a1', name: 'child' })]);
      expect(spans.size).toBe(3);
      expect(spans.spans().map((s) => s.spanId)).toEqual(['a1', 'b1', 'a2']);
      expect(spans.spansByTrace(T1.toUpperCase()).map((s) => s.spanId)).toEqual(['a1', 'a2']);
      expect(spans.spansByName('root').map((s) => s.spanId)).toEqual(['a1', 'b1']);
      const global = /^ro/g;
      expect(spans.spansByName(global)).toHaveLength(2);
      expect(spans.spansByName(global)).toHaveLength(2); // a global RegExp keeps no state between calls
      expect(spans.traceIds()).toEqual([T1, T2]);
      expect(spans.spans()[0]).toEqual(span(T1, 'a1', { name: 'root' }));
      expect(spans.deleteTraces([T1])).toBe(2);
      expect(spans.spans().map((s) => s.spanId)).toEqual(['b1']);
      expect(spans.traceIds()).toEqual([T2]);
      spans.clear();
      expect([spans.size, spans.traceIds().length]).toEqual([0, 0]);
    });

    it('traces: summaries follow the spans (root, name, user, tags, errors, tokens, cost, experiment), filter, newest first', () => {
      stores.spans.add([
        // T1 arrives child first: its earliest orphan is the root until the real root comes.
        span(T1, 'a2', { parent: 'a1', start: 1010, end: 1020, attributes: { 'obs.observation.usage_details': '{"input":3,"output":4}' } }),
      ]);
      expect(stores.traces.get(T1)).toMatchObject({ rootSpanId: 'a2', name: 'a2', observations: 1 });
      stores.spans.add([
        span(T1, 'a1', {
          name: 'POST /chat',
          start: 1000,
          end: 1050,
          attributes: { 'obs.trace.name': 'chat', 'user.id': 'u1', 'session.id': 's1', 'obs.trace.tags': ['x', 'y'] },
        }),
        span(T2, 'b1', {
          name: 'job',
          start: 2000,
          end: 2001,
          error: true,
          attributes: { 'obs.experiment.id': 'exp-1', 'obs.observation.cost_details': '{"total":0.5}', 'session.id': 's1' },
        }),
        span(T3, 'c1', { name: 'Other', start: 3000, attributes: { 'obs.observation.level': 'ERROR', 'user.id': 'u2' } }),
      ]);
      expect(stores.traces.get(T1)).toEqual({
        id: T1,
        name: 'chat',
        rootSpanId: 'a1',
        userId: 'u1',
        sessionId: 's1',
        tags: ['x', 'y'],
        start: 1000,
        end: 1050,
        observations: 2,
        error: false,
        totalTokens: 7,
        totalCost: 0,
        experiment: null,
      });
      expect(stores.traces.get(T2)).toMatchObject({ error: true, totalCost: 0.5, experiment: 'exp-1' });
      const ids = (filter: Parameters<ObsStores['traces']['list']>[0], limit?: number) =>
        stores.traces.list(filter, limit).data.map((s) => s.id);
      expect(ids({})).toEqual([T3, T2, T1]);
      expect(stores.traces.list({}, 2)).toMatchObject({ total: 3, data: [{ id: T3 }, { id: T2 }] });
      expect(ids({ name: 'OTH' })).toEqual([T3]);
      expect(ids({ userId: 'u1' })).toEqual([T1]);
      expect(ids({ sessionId: 's1' })).toEqual([T2, T1]);
      expect(ids({ tag: 'y' })).toEqual([T1]);
      expect(ids({ errorsOnly: true })).toEqual([T3, T2]);
      expect(ids({ experimentsOnly: true })).toEqual([T2]);
      expect(ids({ sessionId: 's1', errorsOnly: true })).toEqual([T2]);

      stores.deleteTraces([T2]);
      expect(stores.traces.get(T2)).toBeUndefined();
      expect(ids({})).toEqual([T3, T1]);
      stores.spans.add([span(T2, 'b9', { name: 'again', start: 500 })]);
      expect(stores.traces.get(T2)).toMatchObject({ name: 'again', observations: 1, experiment: null });
      stores.clear();
      expect(stores.traces.list({})).toEqual({ data: [], total: 0 });
    });

    it('search: every word begins a word of the trace (names, inputs, outputs, metadata), case and accents ignored', () => {
      stores.spans.add([
        span(T1, 'a1', {
          name: 'POST /chat',
          start: 1000,
          attributes: { 'obs.observation.input': '{"question":"Where is my Order 42?"}' },
        }),
        span(T1, 'a2', { parent: 'a1', name: 'chat-model', start: 1001, attributes: { 'obs.observation.output': 'It shipped yesterday' } }),
        span(T2, 'b1', { name: 'résumé-writer', start: 2000, attributes: { 'obs.observation.metadata.customer.tier': 'Gold' } }),
        span(T3, 'c1', { name: 'other', start: 3000, attributes: { 'obs.trace.name': 'nightly job', 'user.id': 'order' } }),
      ]);
      const found = (search: string, filter: Parameters<ObsStores['traces']['list']>[0] = {}) =>
        stores.traces.list({ ...filter, search }).data.map((s) => s.id);
      expect(found('order')).toEqual([T1]); // the user id is not searched
      expect(found('ORD shipp')).toEqual([T1]); // words from two spans of one trace, as prefixes
      expect(found('order gold')).toEqual([]);
      expect(found('resume')).toEqual([T2]);
      expect(found('tier')).toEqual([T2]); // a metadata key
      expect(found('gold', { errorsOnly: true })).toEqual([]);
      expect(found('nightly')).toEqual([T3]);
      expect(found('"it\'s" OR *')).toEqual([T1]); // query syntax is read as words: it, s
      expect(found('  ')).toEqual([T3, T2, T1]);
      expect(stores.traces.list({ search: 'chat' }, 0)).toEqual({ data: [], total: 1 });
      stores.spans.deleteTraces([T1]);
      expect(found('order')).toEqual([]);
      stores.spans.add([span(T1, 'a3', { name: 'order again', start: 4000 })]);
      expect(found('order')).toEqual([T1]);
    });

    it('spans by prompt and of experiments; sub-millisecond trace times; a signing key', () => {
      stores.spans.add([
        span(T1, 'a1', { attributes: { 'obs.observation.prompt.name': 'greet', 'obs.observation.prompt.version': 2 } }),
        span(T2, 'b1', { attributes: { 'obs.experiment.id': 'e1' } }),
        span(T1, 'a2', { parent: 'a1', attributes: { 'obs.observation.prompt.name': 'greet' } }),
        span(T3, 'c1', { attributes: { 'obs.observation.prompt.name': 'other' } }),
      ]);
      expect(stores.spans.spansByPrompt('greet').map((s) => s.spanId)).toEqual(['a1', 'a2']);
      expect(stores.spans.experimentSpans().map((s) => s.spanId)).toEqual(['b1']);
      const precise = span(T3, 'c2', { parent: 'c1' });
      precise.startTimeUnixNano = 5_000_123_456n;
      precise.endTimeUnixNano = 5_000_423_456n;
      stores.spans.add([precise]);
      expect(stores.traces.get(T3)).toMatchObject({ start: 1000, end: 5000.423 });
      expect(stores.urlKey).toHaveLength(32);
    });

    it('scores: kept in order, found by any field value, deleted by id and by trace (any case), cleared', () => {
      const { scores } = stores;
      scores.add([
        { id: 's1', traceId: T1, name: 'quality', value: 1, receivedAt: 1 },
        { id: 's2', traceId: T2.toUpperCase(), name: 'quality', value: 2, receivedAt: 2 },
        { id: 's3', traceId: T1, observationId: 'o1', name: 'tone', value: 'ok', receivedAt: 3 },
      ]);
      expect(scores.all().map((s) => s.id)).toEqual(['s1', 's2', 's3']);
      expect(scores.find({ traceId: [T1] }).map((s) => s.id)).toEqual(['s1', 's3']);
      expect(scores.find({ name: ['quality', 'tone'], id: ['s2', 's3'] }).map((s) => s.id)).toEqual(['s2', 's3']);
      expect(scores.find({ observationId: ['o1'] })[0]).toEqual({
        id: 's3',
        traceId: T1,
        observationId: 'o1',
        name: 'tone',
        value: 'ok',
        receivedAt: 3,
      });
      scores.delete('s1');
      scores.deleteForTraces([T2]);
      expect(scores.all().map((s) => s.id)).toEqual(['s3']);
      scores.clear();
      expect(scores.all()).toEqual([]);
    });

    it('datasets: by name in creation order, replaced by name; item revisions answer the item as it was at a time', () => {
      const { datasets } = stores;
      const ds = (name: string, description: string | null) => ({
        id: `id-${name}`,
        name,
        description,
        metadata: null,
        createdAt: 'c',
        updatedAt: 'u',
      });
      datasets.saveDataset(ds('b', null));
      datasets.saveDataset(ds('a', null));
      datasets.saveDataset(ds('b', 'now described'));
      expect(datasets.datasets().map((d) => [d.name, d.description])).toEqual([
        ['b', 'now described'],
        ['a', null],
      ]);
      expect(datasets.dataset('none')).toBeUndefined();
      const item = (id: string, datasetName: string, input: unknown): StoredDatasetItem => ({
        id,
        datasetId: `id-${datasetName}`,
        datasetName,
        input,
        expectedOutput: null,
        metadata: null,
        status: 'ACTIVE',
        createdAt: 'c',
        updatedAt: 'u',
      });
      datasets.saveItemRevision('i1', 100, item('i1', 'a', 1));
      datasets.saveItemRevision('i2', 150, item('i2', 'b', 2));
      datasets.saveItemRevision('i1', 200, item('i1', 'a', 'changed'));
      datasets.saveItemRevision('i2', 300, null);
      expect(datasets.itemAt('i1', 99)).toBeUndefined();
      expect(datasets.itemAt('i1', 100)?.input).toBe(1);
      expect(datasets.itemAt('i1', 250)?.input).toBe('changed');
      expect(datasets.itemAt('i2', 299)?.input).toBe(2);
      expect(datasets.itemAt('i2', 300)).toBeUndefined();
      expect(datasets.itemsAt(160).map((i) => [i.id, i.input])).toEqual([
        ['i1', 1],
        ['i2', 2],
      ]);
      expect(datasets.itemsAt(400).map((i) => i.id)).toEqual(['i1']);
      expect(datasets.itemsAt(160, 'b').map((i) => i.id)).toEqual(['i2']);
      expect(datasets.versions('a')).toEqual([100, 200]);
      expect(datasets.versions('b')).toEqual([150, 300]); // the deletion is a version too
      stores.clear();
      expect([datasets.datasets().length, datasets.itemsAt(400).length]).toEqual([0, 0]);
    });

    it('media: found by id and by hash with content type, replaced by id; links kept once, in order; bytes by id; cleared', () => {
      const { media } = stores;
      const m = (mediaId: string, sha256Hash: string, contentType: string): StoredMedia => ({
        mediaId,
        contentType,
        contentLength: 3,
        sha256Hash,
        createdAt: 'c',
        uploadedAt: null,
        report: null,
      });
      media.save(m('m1', 'h1', 'image/png'));
      media.save(m('m2', 'h1', 'image/jpeg'));
      expect(media.find('h1', 'image/jpeg')?.mediaId).toBe('m2');
      expect(media.find('h1', 'audio/wav')).toBeUndefined();
      expect(media.find('h2', 'image/png')).toBeUndefined();
      media.save({
        ...m('m1', 'h1', 'image/png'),
        uploadedAt: 'u',
        report: { uploadedAt: 'u', uploadHttpStatus: 200, uploadHttpError: null, uploadTimeMs: 5 },
      });
      expect(media.get('m1')).toEqual({
        ...m('m1', 'h1', 'image/png'),
        uploadedAt: 'u',
        report: { uploadedAt: 'u', uploadHttpStatus: 200, uploadHttpError: null, uploadTimeMs: 5 },
      });
      media.link('m1', { traceId: T1, observationId: null, field: 'input' });
      media.link('m1', { traceId: T2, observationId: 'o2', field: 'output' });
      media.link('m1', { traceId: T1, observationId: null, field: 'input' }); // kept once
      media.link('m1', { traceId: T1, observationId: 'o1', field: 'input' });
      expect(media.links('m1')).toEqual([
        { traceId: T1, observationId: null, field: 'input' },
        { traceId: T2, observationId: 'o2', field: 'output' },
        { traceId: T1, observationId: 'o1', field: 'input' },
      ]);
      expect(media.links('m2')).toEqual([]);
      expect(media.bytes('m1')).toBeUndefined();
      media.saveBytes('m1', Buffer.from([1, 2, 3]));
      expect(media.bytes('m1')).toEqual(Buffer.from([1, 2, 3]));
      stores.clear();
      expect([media.get('m1'), media.bytes('m1'), media.find('h1', 'image/jpeg'), media.links('m1')]).toEqual([
        undefined,
        undefined,
        undefined,
        [],
      ]);
    });

    it('deleting traces takes their spans, scores and media links, and the media no other trace uses; oldest first', () => {
      stores.spans.add([
        span(T1, 'a1', { start: 3000 }),
        span(T2, 'b1', { start: 1000 }),
        span(T2, 'b2', { parent: 'b1', start: 1001 }),
        span(T3, 'c1', { start: 2000 }),
      ]);
      expect(stores.traces.oldest(2)).toEqual([T2, T3]);
      expect(stores.traces.oldest(10, 2500)).toEqual([T2, T3]);
      expect(stores.traces.oldest(10, 1000)).toEqual([]);
      stores.scores.add([
        { id: 's1', traceId: T2, name: 'q', value: 1, receivedAt: 1 },
        { id: 's2', traceId: T1, name: 'q', value: 1, receivedAt: 2 },
      ]);
      const medium = (mediaId: string): StoredMedia => ({
        mediaId,
        contentType: 'image/png',
        contentLength: 1,
        sha256Hash: mediaId,
        createdAt: 'c',
        uploadedAt: 'u',
        report: null,
      });
      for (const id of ['only-t2', 'shared', 'unlinked']) {
        stores.media.save(medium(id));
        stores.media.saveBytes(id, Buffer.from([1]));
      }
      stores.media.link('only-t2', { traceId: T2.toUpperCase(), observationId: 'b1', field: 'input' });
      stores.media.link('shared', { traceId: T2, observationId: null, field: 'input' });
      stores.media.link('shared', { traceId: T1, observationId: null, field: 'output' });
      expect(stores.deleteTraces([T2])).toBe(2);
      expect(stores.spans.traceIds()).toEqual([T1, T3]);
      expect(stores.scores.all().map((s) => s.id)).toEqual(['s2']);
      expect([stores.media.get('only-t2'), stores.media.bytes('only-t2')]).toEqual([undefined, undefined]);
      expect(stores.media.links('shared')).toEqual([{ traceId: T1, observationId: null, field: 'output' }]);
      expect(stores.media.bytes('shared')).toEqual(Buffer.from([1]));
      expect(stores.media.get('unlinked')?.mediaId).toBe('unlinked'); // no trace ever used it: not the deletion's to take
      expect(stores.traces.oldest(10)).toEqual([T3, T1]);
    });

    it("costs: the SDK's cost_details win; else usage priced from the table, by bucket", () => {
      stores.spans.add([
        span(T1, 'a1', {
          attributes: {
            'obs.observation.model.name': 'gpt-4o-mini-2024-07-18',
            'obs.observation.usage_details': '{"input":1000000,"input_cache_read":2000000,"output":100000,"total":3100000}',
          },
        }),
        span(T1, 'a2', {
          parent: 'a1',
          attributes: {
            'obs.observation.model.name': 'gpt-4o-mini',
            'obs.observation.usage_details': '{"input":1000000}',
            'obs.observation.cost_details': '{"input":0.01,"total":0.01}',
          },
        }),
        span(T2, 'b1', {
          attributes: { 'obs.observation.model.name': 'a-model-no-table-has', 'obs.observation.usage_details': '{"input":5}' },
        }),
      ]);
      // 1M input at 0.15, 2M cached at 0.075, 100k output at 0.60; then the SDK's 0.01.
      expect(stores.traces.get(T1)?.totalCost).toBeCloseTo(0.15 + 0.15 + 0.06 + 0.01, 10);
      expect(stores.traces.get(T2)?.totalCost).toBe(0);
    });

    it('prompts: versions oldest first, a saved version replaces the one with its number', () => {
      const { prompts } = stores;
      const p = (version: number, labels: string[]): StoredPrompt => ({
        name: 'greet',
        version,
        type: 'text',
        prompt: `v${version}`,
        config: {},
        labels,
        tags: [],
        commitMessage: null,
        createdAt: 'c',
      });
      prompts.save(p(1, ['production', 'latest']));
      prompts.save(p(2, ['latest']));
      prompts.save(p(1, ['production']));
      expect(prompts.versions('greet').map((v) => [v.version, v.labels])).toEqual([
        [1, ['production']],
        [2, ['latest']],
      ]);
      expect(prompts.versions('other')).toEqual([]);
      prompts.save({ ...p(1, []), name: 'another' });
      expect(prompts.names()).toEqual(['greet', 'another']);
      stores.clear();
      expect(prompts.versions('greet')).toEqual([]);
    });
  });
}
