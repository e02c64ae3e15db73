#!/usr/bin/env node
// First: heap tuning must be in force before the CLI's modules load and the run allocates.
import './heap-tuning.js';
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  onStop: (handler) => {
    process.once('SIGINT', handler);
    process.once('SIGTERM', handler);
  },
});
