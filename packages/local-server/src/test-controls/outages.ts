/**
 * Server-side outages for fault tests: taking the port down and bringing it back on the same
 * port (a restart), and holding requests unanswered (a black hole) until released.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where one HTTP server listens; an optional one (the IPv6 loopback beside the IPv4 one) may fail. */
export interface Binding {
  http: Server;
  host: string;
  optional?: boolean;
}

/**
 * Opens, closes and reopens the server's listening sockets on one port (a restart keeps the
 * port, and state kept by the caller survives).
 */
export class PortControl {
  private port = 0;
  private down = false;
  private listening: Binding[] = [];

  constructor(private readonly bindings: readonly Binding[]) {}

  /** Listens on `port` (0: a free one, then the same for every binding); resolves with the port. */
  async listen(port: number): Promise<number> {
    const [first, ...rest] = this.bindings;
    this.port = await open(first!, port);
    this.listening = [first!];
    for (const binding of rest) {
      try {
        await open(binding, this.port);
        this.listening.push(binding);
      } catch (err) {
        if (!binding.optional) throw err;
      }
    }
    return this.port;
  }

  /** The bindings that listen (an optional one that could not is left out). */
  get hosts(): string[] {
    return this.listening.map((b) => b.host);
  }

  /** Whether the port is closed by `takeDown()`. */
  get isDown(): boolean {
    return this.down;
  }

  /** Stops accepting connections and drops the open ones: clients see ECONNREFUSED / resets. */
  async takeDown(): Promise<void> {
    if (this.down) return;
    this.down = true;
    await Promise.all(
      this.listening.map(({ http }) => {
        const closed = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeAllConnections();
        return closed;
      }),
    );
  }

  /** Listens again on the same port and hosts. */
  async bringUp(): Promise<void> {
    if (!this.down) return;
    for (const binding of this.listening) await open(binding, this.port);
    this.down = false;
  }
}

function open({ http, host }: Binding, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve((http.address() as AddressInfo).port);
    });
  });
}

/** Requests held by `hang` faults, released all at once (their sockets destroyed). */
export class HeldRequests {
  private release = new AbortController();

  /** Resolves when the held requests are released (fault cleared, reset, close). */
  hold(): Promise<void> {
    const { signal } = this.release;
    return new Promise((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  releaseAll(): void {
    this.release.abort();
    this.release = new AbortController();
  }
}
