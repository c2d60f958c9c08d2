#!/usr/bin/env node
/**
 * The `ooda` executable. Before anything else loads (the CLI's modules take a
 * moment), SIGINT, SIGTERM and SIGHUP are made to end the process with exit
 * 130 / 143 / 129 and a line saying so, rather than kill it
 * (bin/signalExit.ts), and a stderr that can no longer be written is let go;
 * then the command runs (bin/main.ts).
 */
import { exitOnSignals } from './signalExit.js';

exitOnSignals('before the command started: nothing was written');
// A stderr whose reader went away (EPIPE) or whose terminal hung up (EIO) loses
// the log lines, and only them: unhandled, its error ended a run on the spot
// (exit 1, its queued rows unwritten) at the next line logged, such as a signal's.
process.stderr.on('error', () => undefined);
await import('./main.js');
