import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { expect, it } from 'vitest';
import { maskedForm } from '../../src/card-numbers/mask.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';
import { writeCardExport } from './card-export.js';
import { cardNumbersIn, everyFile, type FileText } from './every-file.js';
import { EveryJob } from './every-job.js';
import { JobRunner } from './job-runner.js';

/**
 * The proof that a full card number never leaves the input file: an export carrying card numbers
 * of every network, in every shape, in every kind of column, run through every job of the CLI
 * against a sandbox process on a loopback port, all their files in one folder. Afterwards no file
 * under the folder (journals and stores read through SQLite, workbooks unzipped), no output of a
 * job, no page the review served and nothing the service holds from a job carries one; the input
 * files are as they were.
 */

it(
  'no job writes or sends a full card number: every file, every output, the service',
  { timeout: 300_000 },
  async () => {
    const folder = await temporaryFolder('bulk-disputes-all-jobs-');
    const exported = await writeCardExport(folder);
    const inputBytes = await readFile(exported.input);
    const inExport = [...exported.numbers.all];
    const jobs = await JobRunner.start(folder);
    const v1Numbers = await jobs.seedV1Cases(3);
    const every = new EveryJob(jobs, folder, exported);
    await every.imports();
    const typed = await every.review();
    await every.feedBack();
    await every.migrate();
    const list = await jobs.writeIdList(every.at('ids.csv'), exported.numbers);
    await every.reads(list);
    await every.withdraws(list);
    const old = await every.olderResults(inExport);
    await jobs.stopSandbox();

    const texts = await everyFile(folder);
    expect(texts.length).toBeGreaterThan(40);
    // The inputs hold card numbers, as a bank's files do; the service's own v1 cases keep what was
    // typed into them. Nothing a job wrote or sent holds one.
    const inputs = new Set([exported.input, list, old].map((file) => basename(file)));
    const seeded = new Set(v1Numbers);
    const leaks = [...cardNumbersIn(texts.filter(({ where }) => !inputs.has(where)))].filter(
      ([where, digits]) => !where.startsWith('sandbox.db ') || digits.some((number) => !seeded.has(number)),
    );
    expect(Object.fromEntries(leaks)).toEqual({});
    expect(await readFile(exported.input)).toEqual(inputBytes);

    // The masked forms stand where the numbers were: the results, what the service received (the
    // first claim's statement, sent once its slip was fixed and fed back), the review's store.
    const results = textOf(texts, 'results.csv');
    const received = textOf(texts, 'sandbox.db table cases') + textOf(texts, 'sandbox.db table claims');
    for (const digits of inExport) expect(results).toContain(maskedForm(digits));
    for (const digits of inExport.slice(0, 9)) expect(received).toContain(maskedForm(digits));
    expect(textOf(texts, 'export.journal.sqlite.review.sqlite')).toContain(maskedForm(typed));

    // Nothing else was masked: every masked form anywhere is one of the card numbers put in, so no
    // ARN, amount, date, phone number or id of the sample was taken for one.
    const known = new Set([...exported.numbers.all, ...v1Numbers].map(maskedForm));
    const masked = new Set(texts.flatMap(({ text }) => text.match(/\d{6}\*{3,9}\d{4}/g) ?? []));
    expect([...masked].filter((form) => !known.has(form))).toEqual([]);
    expect(masked.size).toBeGreaterThanOrEqual(inExport.length);
  },
);

function textOf(texts: readonly FileText[], prefix: string): string {
  return texts
    .filter(({ where }) => where.startsWith(prefix))
    .map(({ text }) => text)
    .join('\n');
}
