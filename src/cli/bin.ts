#!/usr/bin/env node
import { createInterface } from 'node:readline/promises';
import { keepYoungGenerationSmall } from './heap-tuning.js';
import { runtimeRefusal } from '../runtime/supported.js';

// Before anything loads the SQLite binding, which an older Node cannot load (src/runtime/supported.ts).
const refusal = runtimeRefusal(process.versions.node);
if (refusal !== undefined) {
  process.stderr.write(`${refusal}\n`);
  process.exit(2);
}

// Before the commands' modules load, or loading them grows the young generation (heap-tuning.ts).
keepYoungGenerationSmall();
const { main } = await import('./main.js');
const { commandOutput } = await import('./output.js');

// A closed stderr (`2>&1 | head -1`) leaves nothing to tell anyone; the job itself goes on.
process.stderr.on('error', () => undefined);

process.exitCode = await main(process.argv.slice(2), {
  // A closed stdout ends the command quietly (output.ts, main.ts).
  stdout: commandOutput(process.stdout),
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
