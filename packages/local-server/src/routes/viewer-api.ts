/**
 * The viewer's reads under `/viewer-api/`: the trace list, one trace, one session, the
 * experiment runs and their comparison, prompts, datasets, media the traces refer to, and the
 * live event stream.
 */
import { answer, refuse } from '../http/answer.js';
import type { Pricing } from '../model/cost.js';
import type { ObsStores } from '../stores/types.js';
import { compareRuns } from '../viewer/compare.js';
import { datasetList, datasetView } from '../viewer/datasets.js';
import { experimentRuns } from '../viewer/experiment-runs.js';
import { promptList, promptView } from '../viewer/prompts.js';
import type { LiveEvents } from '../viewer/live-events.js';
import { sessionView, traceDetail, traceList } from '../viewer/reads.js';
import { mediaContent } from './media.js';
import type { ViewerRoute } from './viewer-route.js';

/** The `/viewer-api/*` routes; unknown ones answer 404. */
export function viewerApiRoutes(stores: ObsStores, live: LiveEvents, pricing: Pricing): ViewerRoute[] {
  return [
    {
      methods: ['GET'],
      path: '/viewer-api/events',
      handle: ({ req, res, headers }) => {
        if (req.method === 'HEAD') return answer(200, '', { 'content-type': 'text/event-stream' });
        live.open(req, res, headers);
        return undefined;
      },
    },
    { methods: ['GET'], path: '/viewer-api/traces', handle: ({ url }) => answer(200, traceList(stores, url.searchParams)) },
    {
      methods: ['GET'],
      path: '/viewer-api/traces/:traceId',
      handle: (_request, { traceId }) =>
        /^[0-9a-f]{32}$/.test(traceId!)
          ? answer(200, traceDetail(stores, traceId!, pricing))
          : refuse(404, `no viewer route for trace ${traceId}`),
    },
    {
      methods: ['GET'],
      path: '/viewer-api/sessions/*sessionId',
      handle: (_request, { sessionId }) => answer(200, sessionView(stores, sessionId!)),
    },
    { methods: ['GET'], path: '/viewer-api/experiments', handle: () => answer(200, experimentRuns(stores)) },
    {
      methods: ['GET'],
      path: '/viewer-api/compare',
      handle: ({ url }) => {
        const ids = (url.searchParams.get('runs') ?? '').split(',').filter((id) => id !== '');
        return ids.length ? answer(200, compareRuns(stores, ids)) : refuse(400, 'runs must name one or more run ids, comma-separated');
      },
    },
    { methods: ['GET'], path: '/viewer-api/prompts', handle: () => answer(200, promptList(stores)) },
    { methods: ['GET'], path: '/viewer-api/prompts/*name', handle: (_request, { name }) => answer(200, promptView(stores, name!)) },
    { methods: ['GET'], path: '/viewer-api/datasets', handle: () => answer(200, datasetList(stores)) },
    {
      methods: ['GET'],
      path: '/viewer-api/datasets/*name',
      handle: ({ url }, { name }) => {
        const raw = url.searchParams.get('version');
        const version = raw ? Number(raw) : undefined;
        if (version !== undefined && !Number.isFinite(version)) return refuse(400, 'version must be a time in epoch milliseconds');
        const view = datasetView(stores, name!, version);
        return view ? answer(200, view) : refuse(404, `dataset ${JSON.stringify(name)} not found`);
      },
    },
    {
      methods: ['GET'],
      path: '/viewer-api/media/:mediaId',
      handle: (_request, { mediaId }) => {
        const media = stores.media.get(mediaId!);
        const bytes = media?.uploadedAt ? stores.media.bytes(mediaId!) : undefined;
        return media && bytes ? mediaContent(media, bytes) : refuse(404, `media ${JSON.stringify(mediaId)} is not held`);
      },
    },
    { methods: ['GET'], path: '/viewer-api/*rest', handle: ({ url }) => refuse(404, `no viewer route ${url.pathname}`) },
  ];
}
