import { obsInstrumentation } from '@obs/react-router';
// A minimal entry.server (the whole document rendered before it is sent), plus the one line of
// @obs/react-router.
import { renderToString } from 'react-dom/server';
import { ServerRouter } from 'react-router';

export default function handleRequest(request, responseStatusCode, responseHeaders, routerContext) {
  const html = renderToString(<ServerRouter context={routerContext} url={request.url} />);
  responseHeaders.set('Content-Type', 'text/html');
  return new Response(`<!DOCTYPE html>${html}`, { headers: responseHeaders, status: responseStatusCode });
}

// React Router 7.x reads the instrumentation API under its unstable name.
export const unstable_instrumentations = [
  obsInstrumentation({ identify: ({ request }) => ({ userId: request.headers.get('x-user-id') ?? undefined }) }),
];
