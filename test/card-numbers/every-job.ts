import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import { maskedForm } from '../../src/card-numbers/mask.js';
import { badAmount, type CardExport } from './card-export.js';
import type { JobRunner } from './job-runner.js';
import { startReview } from './review-page.js';

/**
 * Every job of the CLI over the card-number export, each leaving its files in the one folder:
 * the import (results as CSV and workbook, claim bodies), its review and a feed-back, migrate-v1,
 * report, track, export, withdraw, and the jobs that read files of a version before masking.
 */
export class EveryJob {
  private readonly importFlags: string[];
  readonly journal: string;
  readonly migrateJournal: string;

  constructor(
    private readonly jobs: JobRunner,
    private readonly folder: string,
    private readonly exported: CardExport,
  ) {
    this.importFlags = ['--mapping', jobs.mapping, '--evidence-dir', jobs.evidenceDir];
    this.journal = this.at('export.journal.sqlite');
    this.migrateJournal = this.at('migrate.journal.sqlite');
  }

  at(name: string): string {
    return join(this.folder, name);
  }

  /** The import, its results as a CSV, then as a workbook with each claim's body, and a dry run. */
  async imports(): Promise<void> {
    const { at, exported, importFlags } = this.bound();
    await this.jobs.run('import', [
      'import',
      exported.input,
      ...importFlags,
      '--journal',
      this.journal,
      '--results',
      at('results.csv'),
    ]);
    const payloads = ['--payloads', at('payloads.jsonl')];
    const xlsx = ['--journal', at('xlsx.journal.sqlite'), '--results', at('results.xlsx'), ...payloads];
    await this.jobs.run('import-xlsx', ['import', exported.input, ...importFlags, ...xlsx]);
    const dry = ['--dry-run', '--payloads', at('dry.jsonl'), '--results', at('dry.results.csv')];
    await this.jobs.run('import-dry-run', ['import', exported.input, ...importFlags, ...dry]);
  }

  /** The review's page and what it loads, a reviewer's fix typed with a card number, saved; the number. */
  async review(): Promise<string> {
    const review = await startReview([this.journal, ...this.importFlags], this.jobs.env);
    const pages = [await review.get('/'), await review.get('/api/overview'), await review.get('/api/rows?scope=all')];
    const { rows } = JSON.parse(pages[2] ?? '{}') as { rows: { line: number; outcome: string }[] };
    const line = rows.find((row) => row.outcome === 'invalid')?.line;
    expect(line).toBeDefined();
    const typed = this.exported.numbers.next(0);
    const cells = { disputed_amount: '849.99', agent_notes: `nouvelle carte ${typed}` };
    pages.push(await review.send('PUT', `/api/rows/${String(line)}`, { cells }));
    pages.push(await review.get('/api/rows?scope=all'), await review.send('POST', '/api/save', {}));
    await writeFile(this.at('review-page.txt'), [...pages, await review.stop()].join('\n'));
    return typed;
  }

  /** The results file fed back, its slip fixed: the service's masked text taken as it is. */
  async feedBack(): Promise<void> {
    const { at, importFlags } = this.bound();
    const fixed = (await readFile(at('results.csv'), 'utf8')).replace(`,${badAmount},`, ',849.99,');
    await writeFile(at('feed-back.csv'), fixed);
    const files = ['--journal', at('feed-back.journal.sqlite'), '--results', at('feed-back.results.csv')];
    await this.jobs.run('feed-back', ['import', at('feed-back.csv'), ...importFlags, ...files]);
    // The masked text fed back is what the service holds: nothing to update, the fixed claim filed.
    const lines = parse<Record<string, string>>(await readFile(at('feed-back.results.csv'), 'utf8'), { columns: true });
    expect(lines.map((line) => [line.outcome, line.changed_fields])).toEqual(lines.map(() => ['filed', '']));
  }

  /** migrate-v1, dry, grouped by a free-text field, and for real; the page of its review. */
  async migrate(): Promise<void> {
    const { at } = this.bound();
    await this.jobs.run('migrate-dry-run', ['migrate-v1', '--dry-run', '--results', at('migrate.dry.results.csv')]);
    const byNote = ['--group-by', 'custom_fields.note', '--results', at('migrate.note.results.csv')];
    await this.jobs.run('migrate-by-note', ['migrate-v1', '--dry-run', ...byNote]);
    const files = ['--journal', this.migrateJournal, '--results', at('migrate.results.csv')];
    await this.jobs.run('migrate', ['migrate-v1', ...files]);
    const review = await startReview([this.migrateJournal], this.jobs.env);
    const pages = [await review.get('/'), await review.get('/api/rows?scope=all')];
    await writeFile(at('migrate-review-page.txt'), [...pages, await review.stop()].join('\n'));
  }

  /** Reports, tracks and exports: the jobs that read. */
  async reads(list: string): Promise<void> {
    const { at, jobs } = this.bound();
    await jobs.run('report', ['report', at('results.csv'), '--html', at('report.html'), '--xlsx', at('report.xlsx')]);
    const both = [this.journal, at('migrate.results.csv')];
    await jobs.run('report-journals', ['report', ...both, '--html', at('report-all.html')]);
    const track = [
      '--journal',
      at('track.journal.sqlite'),
      '--html',
      at('track.html'),
      '--worklist',
      at('worklist.csv'),
    ];
    await jobs.run('track', ['track', this.journal, this.migrateJournal, '--results', at('track.csv'), ...track]);
    const xlsx = ['--results', at('track.xlsx'), '--journal', at('t2.sqlite')];
    await jobs.run('track-xlsx', ['track', at('results.csv'), ...xlsx]);
    await jobs.run('track-list', ['track', list, '--results', at('track-list.csv'), '--journal', at('t3.sqlite')]);
    await jobs.run('export-cases', ['export', 'cases', '--out', at('cases.csv'), '--columns', jobs.caseColumns]);
    await jobs.run('export-cases-default', ['export', 'cases', '--out', at('cases-default.csv')]);
    const state = ['--state', at('claims.state.json')];
    await jobs.run('export-claims', ['export', 'claims', '--out', at('claims.csv'), ...state]);
    await jobs.run('export-events', ['export', 'events', '--out', at('events.csv')]);
  }

  /** Withdraw: a dry run and a real one on the last claim, and one from the id list; their report. */
  async withdraws(list: string): Promise<void> {
    const { at, jobs } = this.bound();
    const withdraw = ['withdraw', this.journal, '--claim-key', this.exported.keys.at(-1) ?? '', '--yes'];
    await jobs.run('withdraw-dry-run', [...withdraw, '--dry-run', '--results', at('withdraw.dry.results.csv')]);
    await jobs.run('withdraw', [...withdraw, '--journal', at('wd.journal.sqlite'), '--results', at('withdraw.xlsx')]);
    const files = ['--journal', at('wd2.sqlite'), '--results', at('wd2.csv')];
    await jobs.run('withdraw-list', ['withdraw', list, '--yes', ...files]);
    await jobs.run('report-withdraw', ['report', at('withdraw.xlsx'), at('wd2.csv'), '--html', at('report-wd.html')]);
  }

  /**
   * A results file as a version before masking wrote it (the numbers whole, one typed into the
   * amount its error message quotes, one a claim key), read by report, track and withdraw.
   */
  async olderResults(numbers: readonly string[]): Promise<string> {
    const { at, jobs } = this.bound();
    const old = at('old.results.csv');
    // A claim key made of a card number too, which a version before masking did not refuse.
    const written = (await readFile(at('results.csv'), 'utf8'))
      .replaceAll(badAmount, this.exported.numbers.next(1))
      .replaceAll(',D-2026-0102,CLM-D-2026-0102,', `,${this.exported.numbers.next(2)},CLM-D-2026-0102,`);
    await writeFile(
      old,
      numbers.reduce((text, digits) => text.replaceAll(maskedForm(digits), digits), written),
    );
    await jobs.run('report-old', ['report', old, '--html', at('report-old.html'), '--xlsx', at('report-old.xlsx')]);
    await jobs.run('track-old', ['track', old, '--results', at('track-old.csv'), '--html', at('track-old.html')]);
    await jobs.run('withdraw-old', ['withdraw', old, '--dry-run', '--results', at('withdraw-old.csv')]);
    return old;
  }

  private bound() {
    return {
      at: (name: string) => this.at(name),
      jobs: this.jobs,
      exported: this.exported,
      importFlags: this.importFlags,
    };
  }
}
