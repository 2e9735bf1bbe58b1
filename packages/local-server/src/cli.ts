#!/usr/bin/env node
/**
 * `obs-local-server` (`npx @obs/local-server`): runs the local obs server with its trace viewer,
 * prints the three `OBS_*` lines to paste, and prints every trace as it arrives.
 *
 * Usage: obs-local-server [--port 3100] [--host 127.0.0.1] [--allow-host name] [--data dir | --memory] [--public-key pk] [--secret-key sk] [--quiet]
 */
import { runCli, USAGE } from './cli-run.js';

runCli(process.argv.slice(2), process.env, (text) => console.log(text)).then(
  (running) => {
    if (!running) return;
    const shutdown = () => {
      running.stop();
      running.server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  },
  (err: unknown) => {
    console.error(`obs-local-server: ${(err as Error)?.message ?? String(err)}\n\n${USAGE}`);
    process.exit(1);
  },
);
