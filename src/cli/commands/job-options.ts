import type { Command } from 'commander';
import { exitCodeHelp } from '../exit-code-help.js';
import type { JobCommand } from '../exit-code-table.js';
import { addMetricsOptions, addPacingOptions } from '../flags.js';
import { addServiceOptions } from './service-target.js';

/** The help of the options every job against the service ends with, and what its page adds after them. */
export interface JobOptionsHelp {
  /** `--concurrency`'s help; undefined: the job has no such flag (export pages one request at a time). */
  concurrency: string | undefined;
  /** `--restart`'s help: what this job's journal or state file is started over for. */
  restart: string;
  /** The examples and notes after the options. */
  after: string;
}

/**
 * The options a job against the service ends with, in the order `--help` lists them: its pace,
 * `--restart`, the service's and the network's flags, the metrics'; then its help and its exit
 * codes (docs/exit-codes.md).
 */
export function addJobOptions(command: Command, job: JobCommand, help: JobOptionsHelp): Command {
  addPacingOptions(command, help.concurrency);
  command.option('--restart', help.restart, false);
  return addMetricsOptions(addServiceOptions(command))
    .addHelpText('after', help.after)
    .addHelpText('after', exitCodeHelp(job));
}
