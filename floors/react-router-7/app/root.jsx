import { obsMiddleware } from '@obs/react-router';
import { Links, Meta, Outlet, Scripts } from 'react-router';

// The suite serves this one build twice: with obsMiddleware() (route and status of every request)
// and without it (obsInstrumentation() alone), as an app that does not enable middleware. No root
// loader: a page without a loader of its own then runs none, and 7.x tells no handler its route.
export const middleware = process.env.OBS_TEST_MIDDLEWARE === '1' ? [obsMiddleware()] : [];

export default function App() {
  return (
    <html lang="en">
      <head>
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <Scripts />
      </body>
    </html>
  );
}

export function ErrorBoundary() {
  return <p>Something went wrong</p>;
}
