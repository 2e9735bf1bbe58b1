#!/usr/bin/env node
/**
 * `obs-local-server` (`npx @obs/local-server`): runs the local obs server with its trace viewer,
 * prints the three `OBS_*` lines to paste, and prints every trace as it arrives.
 *
 * Usage: obs-local-server [--port 3100] [--host 127.0.0.1] [--allow-host name] [--data dir | --memory] [--retain days]
 *   [--max-size MB] [--prices file] [--public-key pk] [--secret-key sk] [--quiet]
 */
import { runCli, USAGE, UsageError } from './cli-run.js';
import { escapeControls } from './text/terminal.js';

// A file-size limit (`ulimit -f`) reached would end the process (SIGXFSZ); with this the write
// fails instead, and the request is answered 503 like any other failing disk.
if (process.platform !== 'win32') process.on('SIGXFSZ', () => {});

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
    // The usage text only for a mistake in the command line; anything else is said in one line.
    const message = escapeControls((err as Error)?.message ?? String(err));
    console.error(err instanceof UsageError ? `obs-local-server: ${message}\n\n${USAGE}` : `obs-local-server: ${message}`);
    process.exit(1);
  },
);
