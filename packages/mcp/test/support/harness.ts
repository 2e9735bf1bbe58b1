/**
 * What the @obs/mcp tests share: the local obs server with obs initialised against it in this
 * process (the MCP client's), MCP servers started as real child processes (test/fixtures/server.mjs)
 * that export to the same local server, and readers of what arrived.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { initObs } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import { setupObsServer, initTestObs } from '@obs/local-server/testing';
import { expect } from 'vitest';

export const SERVER_SCRIPT = fileURLToPath(new URL('../fixtures/server.mjs', import.meta.url));

export type Sdk = 'v1' | 'v2' | 'floor';
export type Transport = 'stdio' | 'http' | 'sse';
export type ServerMode = 'obs' | 'plain' | 'openinference';

export function setup() {
  const local = setupObsServer({ init: initTestObs(initObs) });

  /** What a server process needs in `env`: where obs exports, and the test project's provider. */
  const serverEnv = (): Record<string, string> => ({
    ...local.server.env,
    OBS_FLUSH_INTERVAL: '0.05',
    ...(process.env['OBS_TEST_PROVIDER'] ? { OBS_TEST_PROVIDER: process.env['OBS_TEST_PROVIDER'] } : {}),
  });

  /** Waits until `count` spans of `traceId` arrived, then returns them (exactly that many). */
  async function trace(traceId: string, count: number): Promise<DecodedSpan[]> {
    await local.handle.flush();
    const spans = await local.server.waitFor(() => {
      const s = local.server.spansByTrace(traceId);
      return s.length >= count ? s : undefined;
    });
    // Anything late would arrive within a flush interval of the processes that send it.
    await new Promise((r) => setTimeout(r, 150));
    expect(local.server.spansByTrace(traceId)).toHaveLength(count);
    return spans;
  }

  return { local, serverEnv, trace };
}

/** An HTTP MCP server process: its URL, what it wrote to stderr, and `stop()` (it flushes and exits). */
export async function startHttpServer(sdk: Sdk, transport: 'http' | 'sse', mode: ServerMode, env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVER_SCRIPT, sdk, transport, mode], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let stdout = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      const m = /PORT (\d+)/.exec(stdout);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${stderr}`)));
  });
  const path = transport === 'sse' ? '/sse' : '/mcp';
  return {
    url: new URL(`http://127.0.0.1:${port}${path}`),
    pid: child.pid!,
    get stderr() {
      return stderr;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
    },
  };
}

export const attr = (s: DecodedSpan, key: string) => s.attributes[`obs.observation.${key}`];
export const json = (s: DecodedSpan, key: string) => {
  const v = attr(s, key);
  return typeof v === 'string' ? JSON.parse(v) : v;
};
export const meta = (s: DecodedSpan, key: string) => s.attributes[`obs.observation.metadata.mcp.${key}`];

/** The one span named `name` (it must be exactly one). */
export function one(spans: DecodedSpan[], name: string, where?: (s: DecodedSpan) => boolean): DecodedSpan {
  const found = spans.filter((s) => s.name === name && (!where || where(s)));
  expect(
    found.map((s) => s.name),
    `exactly one ${name}`,
  ).toHaveLength(1);
  return found[0]!;
}

/** Runs `count` tasks, at most `inFlight` at once. */
export async function pool(count: number, inFlight: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) await task(next++);
    }),
  );
}
