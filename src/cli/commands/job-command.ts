import type { Command } from 'commander';
import { exitCodeHelp } from '../exit-code-help.js';
import type { JobCommand } from '../exit-code-table.js';
import { addMetricsOptions, addPacingOptions } from '../flags.js';
import { addServiceOptions } from './service-target.js';

/** What a job's command says in the flags every job against its service shares. */
export interface JobCommandHelp {
  /** Whose exit codes the help lists. */
  readonly job: JobCommand;
  /** `--concurrency`: what is held in flight at once. */
  readonly concurrency: string;
  /** `--restart`: what it starts over. */
  readonly restart: string;
  /** The examples and notes after the options. */
  readonly after: string;
}

/**
 * The flags and help a job against its service ends its command with, in this order: its pace,
 * `--restart`, the service's and the network's flags, the metrics', then its own help and its exit codes.
 */
export function addJobOptions(command: Command, help: JobCommandHelp): Command {
  addPacingOptions(command, help.concurrency);
  command.option('--restart', help.restart, false);
  return addMetricsOptions(addServiceOptions(command))
    .addHelpText('after', help.after)
    .addHelpText('after', exitCodeHelp(help.job));
}
