import { Links, Meta, Outlet, Scripts } from 'react-router';

export function loader() {
  return { app: 'obs-test' };
}

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
