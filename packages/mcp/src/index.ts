/**
 * `@obs/mcp`: `observeMcpClient(client)` and `observeMcpServer(server)` make every Model Context
 * Protocol request an obs observation, one trace across the client's and the server's processes
 * (W3C trace context in `params._meta`).
 *
 * @packageDocumentation
 */
export { observeMcpClient } from './observe-client.js';
export { observeMcpServer } from './observe-server.js';
export { obsEnvironment } from './environment.js';
