/**
 * The SHA-256 the media protocol asks for (base64), off the event loop where it pays. Hashing
 * costs ~1 ms per MB on whichever thread does it (WebCrypto's `digest` on Node.js too: it copies
 * and hashes before it returns), so media of `OFF_LOOP_MIN_BYTES` and more is hashed on a worker
 * thread: the bytes are transferred there and back (a decoded buffer is the export's own; binary
 * data of the app is copied first, and the copy is what is uploaded). Smaller media is hashed in
 * place, where a message to the worker would cost more than the hash. Without worker threads
 * (edge runtimes), or when the worker fails, everything is hashed in place.
 */
import { bytesToBase64 } from '../../util/base64.js';
import { logger } from '../../util/logger.js';
import { nodeBuiltin } from '../../util/runtime.js';
import { unref } from '../../util/unref.js';

/** Smallest medium hashed on the worker thread. */
export const OFF_LOOP_MIN_BYTES = 1024 * 1024;

/** A medium's bytes with their hash; `bytes` is what to upload (a copy when the app's data was transferred). */
export interface HashedBytes {
  sha256Hash: string;
  bytes: Uint8Array;
}

interface NodeCrypto {
  createHash(algorithm: 'sha256'): { update(data: Uint8Array): { digest(encoding: 'base64'): string } };
}
interface WorkerLike {
  on(event: 'message' | 'error' | 'exit', listener: (value: unknown) => void): void;
  postMessage(value: unknown, transfer: ArrayBuffer[]): void;
  unref(): void;
}
interface WorkerThreads {
  Worker: new (source: string, options: { eval: true }) => WorkerLike;
}

/** The worker's code: hash what arrives, send the bytes back with the hash. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
parentPort.on('message', ({ id, buffer }) => {
  const sha256Hash = createHash('sha256').update(new Uint8Array(buffer)).digest('base64');
  parentPort.postMessage({ id, sha256Hash, buffer }, [buffer]);
});
`;

/**
 * The bytes' hash. `owned`: the bytes are the export's own (decoded from base64), so they may be
 * transferred to the worker as they are.
 */
export async function hashMedia(bytes: Uint8Array, owned: boolean): Promise<HashedBytes> {
  if (bytes.byteLength >= OFF_LOOP_MIN_BYTES) {
    const worker = hashWorker();
    if (worker) {
      // A buffer the worker can take whole: the export's own, or a copy of the app's data.
      const whole = owned && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
      try {
        return await worker.hash(whole.buffer as ArrayBuffer);
      } catch (err) {
        logger.debug(`media: hashing on the worker thread failed (${String(err)})`);
        // The export's own bytes went with the worker; the app's are still here.
        if (whole === bytes) throw err;
      }
    }
  }
  // The app's bytes are uploaded after the ask is answered: a copy, so a buffer it reuses meanwhile
  // cannot change what was hashed.
  return { sha256Hash: await hashInPlace(bytes), bytes: owned ? bytes : bytes.slice() };
}

async function hashInPlace(bytes: Uint8Array): Promise<string> {
  const node = nodeBuiltin<NodeCrypto>('node:crypto');
  if (node) return node.createHash('sha256').update(bytes).digest('base64');
  return bytesToBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}

/** One worker thread for the process, started at the first large medium; it never keeps the process alive. */
class HashWorker {
  private next = 0;
  private readonly waiting = new Map<number, { resolve(value: HashedBytes): void; reject(err: Error): void }>();

  constructor(private readonly worker: WorkerLike) {
    worker.on('message', (value) => {
      const { id, sha256Hash, buffer } = value as { id: number; sha256Hash: string; buffer: ArrayBuffer };
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      waiter?.resolve({ sha256Hash, bytes: new Uint8Array(buffer) });
    });
    const fail = (why: unknown) => {
      broken = true;
      shared = undefined;
      const err = why instanceof Error ? why : new Error(`the hash worker stopped (${String(why)})`);
      for (const waiter of this.waiting.values()) waiter.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    // After the listeners: adding a message listener refs the worker again.
    unref(worker);
  }

  hash(buffer: ArrayBuffer): Promise<HashedBytes> {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, buffer }, [buffer]);
    });
  }
}

let shared: HashWorker | undefined;
let broken = false;

function hashWorker(): HashWorker | undefined {
  if (broken) return undefined;
  if (shared) return shared;
  const threads = nodeBuiltin<WorkerThreads>('node:worker_threads');
  if (!threads || !nodeBuiltin('node:crypto')) {
    broken = true;
    return undefined;
  }
  try {
    shared = new HashWorker(new threads.Worker(WORKER_SOURCE, { eval: true }));
  } catch (err) {
    broken = true;
    logger.debug(`media: no hash worker thread (${String(err)}); media is hashed on the event loop`);
  }
  return shared;
}
