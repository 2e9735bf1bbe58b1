/**
 * The servers obs must survive, as real sockets: a closed port (connection refused), a black hole
 * (accepts connections, never answers), a host name that does not resolve, and a TLS server whose
 * certificate is self-signed (the test key in `tls/` exists for nothing else). Each counts the
 * connections it saw, so a test can tell one attempt per batch from a retry loop.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

export interface BadServer {
  /** What it is, for test names. */
  readonly label: string;
  /** Base URL obs is pointed at. */
  readonly url: string;
  /** TCP connections accepted so far (0 for a closed port or a name that does not resolve). */
  connections(): number;
  close(): Promise<void>;
}

/** A port that was just closed: connecting is refused at once. */
export async function closedPort(): Promise<BadServer> {
  const server = createServer();
  await listen(server);
  const port = portOf(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return { label: 'a closed port', url: `http://127.0.0.1:${port}`, connections: () => 0, close: async () => undefined };
}

/** Accepts every connection and never answers (until closed). */
export async function blackHole(): Promise<BadServer> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await listen(server);
  return {
    label: 'a black hole',
    url: `http://127.0.0.1:${portOf(server)}`,
    connections: () => count,
    close: () => closeAll(server, sockets),
  };
}

/** A name in the `.invalid` top-level domain, which never resolves (RFC 2606). */
export async function unresolvableHost(): Promise<BadServer> {
  return { label: 'an unresolvable host', url: 'http://no-such-host.invalid', connections: () => 0, close: async () => undefined };
}

const TLS_DIR = new URL('./tls/', import.meta.url);

/** An HTTPS-speaking TLS server with a self-signed certificate: clients that verify refuse the handshake. */
export async function selfSignedTls(): Promise<BadServer> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createTlsServer(
    { key: readFileSync(new URL('self-signed-key.pem', TLS_DIR)), cert: readFileSync(new URL('self-signed-cert.pem', TLS_DIR)) },
    (socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'),
  );
  server.on('connection', (socket: Socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => undefined);
  await listen(server);
  return {
    label: 'a self-signed TLS server',
    url: `https://127.0.0.1:${portOf(server)}`,
    connections: () => count,
    close: () => closeAll(server, sockets),
  };
}

/** The four, in the order the reports list them. */
export const BAD_SERVERS = [closedPort, blackHole, unresolvableHost, selfSignedTls] as const;

function listen(server: Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function closeAll(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const s of sockets) s.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}
