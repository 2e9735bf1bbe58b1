/**
 * The viewer's one write: a trace turned into a test case. `POST
 * /viewer-api/traces/<traceId>/dataset-item` with `{ datasetName, expectedOutput? }` adds the
 * trace's root input, and as expected output the (edited) one given or else the root's output, to
 * the dataset (made when it does not exist yet), linked by `sourceTraceId`: what
 * `client.dataset.createItemFromTrace` does through the public API.
 *
 * Like every viewer route it sits behind the Host/Origin check and the viewer's door; it takes
 * JSON only (a form on another site cannot post it without a preflight the Origin check refuses).
 */
import { randomUUID } from 'node:crypto';
import { refuse } from '../http/answer.js';
import { BodyTooLargeError, readBody } from '../http/body.js';
import { parseJson } from '../model/observations.js';
import type { ObsStores } from '../stores/types.js';
import { upsertItem } from './datasets.js';
import type { ViewerRoute } from './viewer-route.js';

/** An edited expected output is small; this only bounds what a stray request makes the server hold. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The "add to dataset" route of a trace's page. */
export function viewerDatasetItemRoutes(stores: ObsStores): ViewerRoute[] {
  return [
    {
      methods: ['POST'],
      path: '/viewer-api/traces/:traceId/dataset-item',
      handle: async ({ req }, { traceId }) => {
        if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return refuse(415, 'send the item as application/json');
        let body: unknown;
        try {
          body = JSON.parse((await readBody(req, MAX_BODY_BYTES)).toString('utf8'));
        } catch (err) {
          return err instanceof BodyTooLargeError ? refuse(413, err.message) : refuse(400, 'the body must be JSON');
        }
        const { datasetName, expectedOutput } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
        if (typeof datasetName !== 'string' || datasetName.trim() === '') return refuse(400, 'datasetName must be a non-empty string');
        const summary = stores.traces.get(traceId!);
        const root = summary && stores.spans.spansByTrace(traceId!).find((s) => s.spanId === summary.rootSpanId);
        if (!root) return refuse(404, `trace ${traceId} has no observations here`);
        if (!stores.datasets.dataset(datasetName)) {
          const now = new Date().toISOString();
          stores.datasets.saveDataset({
            id: randomUUID(),
            name: datasetName,
            description: null,
            metadata: null,
            createdAt: now,
            updatedAt: now,
          });
        }
        return upsertItem(stores.datasets, {
          datasetName,
          input: parseJson(root.attributes['obs.observation.input']),
          expectedOutput: 'expectedOutput' in (body as object) ? expectedOutput : parseJson(root.attributes['obs.observation.output']),
          sourceTraceId: root.traceId,
        });
      },
    },
  ];
}
