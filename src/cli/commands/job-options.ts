import type { Command } from 'commander';
import { exitCodeHelp } from '../exit-code-help.js';
import type { JobCommand } from '../exit-code-table.js';
import { addMetricsOptions, addPacingOptions } from '../flags.js';
import { addServiceOptions } from './service-target.js';

/** What a job's command says in the options every job against the service ends with, and after them. */
export interface JobOptionsHelp {
  /** Whose exit codes the help lists. */
  readonly job: JobCommand;
  /** `--concurrency`'s help: what is held in flight at once; undefined: the job has no such flag (export pages one request at a time). */
  readonly concurrency: string | undefined;
  /** `--restart`'s help: what this job's journal or state file is started over for. */
  readonly restart: string;
  /** The examples and notes after the options. */
  readonly after: string;
}

/**
 * The options a job against the service ends with, in the order `--help` lists them: its pace,
 * `--restart`, the service's and the network's flags, the metrics'; then its help and its exit
 * codes (docs/exit-codes.md).
 */
export function addJobOptions(command: Command, help: JobOptionsHelp): Command {
  addPacingOptions(command, help.concurrency);
  command.option('--restart', help.restart, false);
  return addMetricsOptions(addServiceOptions(command))
    .addHelpText('after', help.after)
    .addHelpText('after', exitCodeHelp(help.job));
}
