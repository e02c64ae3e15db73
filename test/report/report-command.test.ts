import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hintFor } from '../../src/job-files/hints.js';
import { runCli } from '../helpers/cli.js';
import { failedLines, temporaryFolder, writeResultsCsv } from './fixture.js';

describe('bulk-disputes report', () => {
  it('counts outcomes and error codes, hints at fixes and lists claims with mixed outcomes', async () => {
    const file = await writeResultsCsv(await temporaryFolder());
    const run = await runCli(['report', file]);

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('rows 8, claims 7');
    expect(run.stdout).toMatch(/^ {2}filed +2$/m);
    expect(run.stdout).toMatch(/^ {2}invalid +3$/m);
    expect(run.stdout).toMatch(/^ {2}not_filed +1$/m);
    expect(run.stdout).toMatch(/^ {2}amount_format +2$/m);
    expect(run.stdout).toContain('top errors (4 of 4):');
    expect(run.stdout).toContain(`fix:  ${hintFor('amount_format')}`);
    expect(run.stdout).toContain(`fix:  ${hintFor('documentation_missing')}`);
    // An unknown code still gets a hint: the generic one.
    expect(run.stdout).toContain(
      `  mystery_code (1)\n    e.g.  something new, with a comma\n    fix:  ${hintFor('mystery_code')}`,
    );
    expect(run.stdout).toContain('claims with mixed outcomes: 1\n  CLM-D-1 -> filed, not_filed\n');
  });

  it('reads a results CSV written in windows-1252 with --encoding', async () => {
    const folder = await temporaryFolder();
    const file = join(folder, 'cp1252.results.csv');
    const header =
      'line,claim_key,claim_id,case_id,outcome,error_code,error_message,error_field,http_status,attempts,file_ids,amount\r\n';
    await writeFile(
      file,
      Buffer.concat([
        Buffer.from(header),
        Buffer.from('2,K,,,invalid,amount_format,"got ', 'latin1'),
        Buffer.from([0x80]),
        Buffer.from('5",,,,,\u00809\r\n', 'latin1'),
      ]),
    );
    const run = await runCli(['report', file, '--encoding', 'windows-1252']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('e.g.  got €5');
  });

  it('writes one self-contained HTML page with a chart and a table of exactly the failed rows, every cell escaped', async () => {
    const folder = await temporaryFolder();
    const file = await writeResultsCsv(folder);
    const page = join(folder, 'report.html');
    const run = await runCli(['report', file, '--html', page]);
    expect(run.exitCode).toBe(0);
    const html = await readFile(page, 'utf8');

    expect(html).toContain('<svg');
    expect(html.match(/<table id="failed">/g)).toHaveLength(1);
    const failed = /<table id="failed">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '';
    const lines = [...failed.matchAll(/<tr><td class="n">(\d+)<\/td>/g)].map((match) => match[1]);
    expect(lines).toEqual(failedLines);
    // The operator's reference beside the service's ids.
    expect(html).toMatch(/<thead><tr><th>line<\/th><th>claim_key<\/th><th>claim_id<\/th>/);
    // Only the page's own sorting script; the cell's is text.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<(link|img|iframe)\b|\bsrc=|@import|url\(/);
    // One document: one doctype, one html element, closed at the end, balanced tables.
    expect(html.match(/<!DOCTYPE html>/gi)).toHaveLength(1);
    expect(html.match(/<html\b/g)).toHaveLength(1);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html.match(/<table\b/g)?.length).toBe(html.match(/<\/table>/g)?.length);
    expect(html.match(/<tr>/g)?.length).toBe(html.match(/<\/tr>/g)?.length);
    // Written through a temporary file that is gone.
    expect(await readdir(folder)).toEqual(['disputes.results.csv', 'report.html'].sort());
  });

  it('refuses a CSV that is not a results CSV with exit 2', async () => {
    const folder = await temporaryFolder();
    const file = join(folder, 'export.csv');
    await writeFile(file, 'dispute_ref,amount\nD-1,10.00\n');
    // The sentence a person reads (on a pipe the failure is one JSON record unless pretty lines are asked for).
    const run = await runCli(['--log-format', 'pretty', 'report', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('expected a results CSV (line, claim_key,');
    expect(run.stderr).toContain('got "dispute_ref", "amount"');
    expect(run.stdout).toBe('');
  });

  it('refuses a file that is not there with exit 2', async () => {
    const run = await runCli(['report', join(await temporaryFolder(), 'missing.csv')]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('nothing there');
  });

  it('has --help with an example', async () => {
    const run = await runCli(['report', '--help']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('--html <file>');
    expect(run.stdout).toContain('bulk-disputes report out/disputes.results.csv --html');
  });
});
