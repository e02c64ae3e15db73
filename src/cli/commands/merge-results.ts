import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { mergeShardJournals } from '../../job-files/import/merge-journals.js';
import { okOutcomes, outcomes } from '../../job-files/import/columns.js';
import { rowsOf } from '../../metrics/recorder.js';
import { MergeRefusedError } from '../../job-files/import/merge.js';
import type { CliContext } from '../context.js';
import { exitCodeHelp } from '../exit-code-help.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { addMetricsOptions } from '../flags.js';

interface MergeFlags {
  out: string;
}

const helpText = `
Examples:
  # the four shards of one import (--shard 1/4 ... 4/4) as one results CSV
  bulk-disputes merge-results --out out/disputes.results.csv out/disputes.shard-*-of-4.journal.sqlite

  # the same as a workbook for review in a spreadsheet
  bulk-disputes merge-results --out out/disputes.results.xlsx out/disputes.shard-*-of-4.journal.sqlite

Give every shard's journal (the --journal of its import: it records the input, the mapping, the
flags and the shard i/n, which a results CSV does not). The merged results CSV has every input row
once, in input order, in the dialect of the shards' results (the input's), and reads exactly as the
import without --shard would have written it, except for each shard's own attempts and file_ids.

Refused (exit 2, naming the file and why): a results CSV or other file instead of a journal,
journals of another input, mapping, file mode or dry-run flag, of another split (2/4 beside 1/3),
the same shard twice (their lines overlap), a shard missing, a journal whose staging never
finished. The merged file's rows keep their outcomes: report on it for those.
`;

/** `bulk-disputes merge-results`: the shards of one import (`--shard i/n`) as one results CSV. */
export function mergeResultsCommand(context: CliContext): Command {
  const command = new Command('merge-results')
    .description('merge the results of an import split with --shard i/n into one results CSV, in input order')
    .argument('<journals...>', 'the journal of every shard (--journal of each import)')
    .requiredOption(
      '--out <file>',
      'the merged results CSV, or a workbook of text cells when it ends in .xlsx (written to a temporary file and renamed when complete)',
    );
  return addMetricsOptions(command)
    .addHelpText('after', helpText)
    .addHelpText('after', exitCodeHelp('merge-results'))
    .action(async (journals: string[], flags: MergeFlags) => {
      await runMergeCommand(journals, flags, context);
      context.setExitCode(ExitCode.ok);
    });
}

async function runMergeCommand(journals: readonly string[], flags: MergeFlags, context: CliContext): Promise<void> {
  const out = resolve(flags.out);
  for (const file of journals) {
    const found = await stat(file).catch(() => undefined);
    if (found?.isFile() !== true)
      throw new UsageError(
        `journal ${file}: expected a shard's journal file, got ${found === undefined ? 'nothing there' : 'something else'}`,
      );
    if (resolve(file) === out)
      throw new UsageError(`--out ${out}: expected a file of its own, got one of the journals`);
  }
  await mkdir(dirname(out), { recursive: true });
  const startedMs = Date.now();
  const { summary, shards } = await mergeShardJournals(journals, out).catch((error: unknown) => {
    if (error instanceof MergeRefusedError) throw new UsageError(error.message, { cause: error });
    throw error;
  });
  const count = shards[0]?.shard?.count ?? 1;
  const counts = outcomes
    .flatMap((outcome) =>
      summary.byOutcome[outcome] === undefined ? [] : [`${outcome} ${summary.byOutcome[outcome]}`],
    )
    .join(', ');
  // The night's totals, a group of its own (no shard label): every shard's rows once.
  context.metrics.record({
    rows: rowsOf(summary.byOutcome, (outcome) => okOutcomes.includes(outcome)),
    phases: [{ phase: 'merging', seconds: (Date.now() - startedMs) / 1000 }],
  });
  context.logger.info(
    { shards: shards.length, rows: summary.rows, outcomes: summary.byOutcome, results: out },
    'results merged',
  );
  context.io.stderr.write(
    `merged ${shards.length} of ${count} shards: ${summary.rows} rows (${counts || 'none'})\nresults: ${out}\n`,
  );
}
