/**
 * Server-side outages for fault tests: taking the port down and bringing it back on the same
 * port (a restart), and holding requests unanswered (a black hole) until released.
 */
import type { Server } from 'node:http';

/** Closes and reopens one HTTP server's listening port; state kept by the caller survives. */
export class PortControl {
  private host = '127.0.0.1';
  private port = 0;
  private down = false;

  constructor(private readonly http: Server) {}

  /** Remembers where the server listens, for `up()`. */
  listening(port: number, host: string): void {
    this.port = port;
    this.host = host;
  }

  /** Whether the port is closed by `down()`. */
  get isDown(): boolean {
    return this.down;
  }

  /** Stops accepting connections and drops the open ones: clients see ECONNREFUSED / resets. */
  async takeDown(): Promise<void> {
    if (this.down) return;
    this.down = true;
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    this.http.closeAllConnections();
    await closed;
  }

  /** Listens again on the same port and host. */
  async bringUp(): Promise<void> {
    if (!this.down) return;
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.port, this.host, () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    this.down = false;
  }
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
