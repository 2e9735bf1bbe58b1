/**
 * React Router 7.9.5 framework mode, server-rendered, with route middleware enabled (the floor
 * app of @obs/react-router: the first release with `unstable_instrumentations`).
 */
export default { ssr: true, future: { v8_middleware: true } };
