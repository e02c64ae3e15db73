#!/usr/bin/env node
import { createInterface } from 'node:readline/promises';
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  // A person at a terminal can be asked (withdraw's confirmation); a pipe or cron cannot.
  ask: process.stdin.isTTY && process.stderr.isTTY ? ask : undefined,
  onStop: (handler) => {
    process.once('SIGINT', handler);
    process.once('SIGTERM', handler);
  },
});

async function ask(question: string): Promise<string | undefined> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await terminal.question(question);
  } finally {
    terminal.close();
  }
}
