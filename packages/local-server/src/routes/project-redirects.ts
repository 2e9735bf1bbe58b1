/**
 * The platform's addresses, opened on the local server: what `client.getTraceUrl()` and an
 * experiment result's `format()` print (`{baseUrl}/project/{projectId}/traces/{traceId}`,
 * `…/experiments/{experimentId}`) redirect to the same trace, run or session in the viewer, so a
 * link the SDK printed opens here as it would on the platform. Behind the viewer's door, like
 * its pages.
 */
import { answer } from '../http/answer.js';
import { link } from '../viewer/links.js';
import type { ViewerRoute } from './viewer-route.js';

/** The project paths the SDK makes, each sent to its viewer page (any project id: a link made against another server's id still opens). */
export function projectRedirects(): ViewerRoute[] {
  const to = (hash: string) => answer(302, '', { location: `/${hash}` });
  return [
    {
      methods: ['GET'],
      path: '/project/:projectId/traces/:traceId',
      // The platform's `?observation=<id>` selects one observation of the trace.
      handle: ({ url }, { traceId }) => {
        const observation = url.searchParams.get('observation');
        return to(observation ? link('trace', traceId!.toLowerCase(), observation) : link('trace', traceId!.toLowerCase()));
      },
    },
    {
      methods: ['GET'],
      path: '/project/:projectId/experiments/:experimentId',
      handle: (_r, { experimentId }) => to(link('compare', experimentId!)),
    },
    { methods: ['GET'], path: '/project/:projectId/sessions/:sessionId', handle: (_r, { sessionId }) => to(link('session', sessionId!)) },
    { methods: ['GET'], path: '/project/:projectId/*rest', handle: () => to('#/') },
    { methods: ['GET'], path: '/project/:projectId', handle: () => to('#/') },
  ];
}
