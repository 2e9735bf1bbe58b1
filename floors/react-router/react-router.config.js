/** React Router 8.1.0 framework mode, server-rendered (the floor app of @obs/react-router). */
export default { ssr: true };
