#!/usr/bin/env node
/**
 * The `ooda` executable. Before anything else loads (the CLI's modules take a
 * moment), SIGINT, SIGTERM and SIGHUP are made to end the process with exit
 * 130 / 143 / 129 and a line saying so, rather than kill it
 * (bin/signalExit.ts); then the command runs (bin/main.ts).
 */
import { exitOnSignals } from './signalExit.js';

exitOnSignals('before the command started: nothing was written');
await import('./main.js');
