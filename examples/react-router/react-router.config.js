/** React Router framework mode, server-rendered (the test app of @obs/react-router). */
export default { ssr: true };
