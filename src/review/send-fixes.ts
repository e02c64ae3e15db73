import type { Logger } from 'pino';
import type { ServiceIdentity } from '../api/service-identity.js';
import type { ServiceTarget } from '../api/service-target.js';
import { Progress } from '../progress/progress.js';
import type { ImportReviewJob } from './job-types.js';
import { feedBackResults, saveFixes } from './save-fixes.js';

/** The job's service, named as its journal names it. */
export type SendTarget = Readonly<ServiceTarget & { identity: ServiceIdentity }>;

/** A fix file to feed back: what the import is asked, the rest of its settings its own defaults. */
export interface FixFeedBack {
  input: string;
  mappingFile: string;
  idPrefix: string | undefined;
  resultsFile: string;
  journalFile: string;
  evidenceDir: string;
  service: SendTarget;
  logger: Logger;
  progress: Progress;
}

/** What the review shows of the import that fed a fix file back. */
export interface FixFeedBackReport {
  summary: { byOutcome: Record<string, number> };
  abortedBecause: string | undefined;
  fatal?: unknown;
}

/**
 * The import itself, given by the CLI (cli/commands/review.ts): the review stands beside the
 * import, not on it, and feeds a fix file back through the same plan as `bulk-disputes import`.
 */
export type FeedBack = (fix: FixFeedBack) => Promise<FixFeedBackReport>;

export interface SendState {
  readonly status: 'idle' | 'running' | 'done' | 'failed';
  /** The import's progress line, as a terminal would show it. */
  readonly progress: string;
  readonly file?: string | undefined;
  readonly results?: string | undefined;
  readonly outcomes?: Readonly<Record<string, number>> | undefined;
  readonly error?: string | undefined;
}

/**
 * `review --send`: the fix file saved, then fed back by the import itself, in this process, with a
 * journal of its own: the same journal rules as a feed-back from the command line (a claim the
 * service holds is compared and updated, never created again). One send at a time; its state is
 * polled by the page.
 */
export class FixSender {
  private current: SendState = { status: 'idle', progress: '' };

  constructor(
    private readonly job: ImportReviewJob,
    private readonly target: SendTarget,
    private readonly options: { evidenceDir: string; logger: Logger; format: 'csv' | 'xlsx'; feedBack: FeedBack },
  ) {}

  state(): SendState {
    return this.current;
  }

  /** Starts a send of the edits; false when one is running already. */
  start(edits: ReadonlyMap<number, Readonly<Record<string, string>>>): boolean {
    if (this.current.status === 'running') return false;
    this.current = { status: 'running', progress: 'saving the fix file' };
    void this.send(edits).catch((error: unknown) => {
      this.current = { ...this.current, status: 'failed', error: (error as Error).message };
    });
    return true;
  }

  private async send(edits: ReadonlyMap<number, Readonly<Record<string, string>>>): Promise<void> {
    const saved = await saveFixes(this.job, edits, this.options.format, this.options.evidenceDir);
    const results = feedBackResults(saved.file);
    this.current = { status: 'running', progress: 'sending', file: saved.file };
    const progress = new Progress({
      isTTY: true,
      write: (text: string) => {
        // eslint-disable-next-line no-control-regex
        const line = text.replace(/\u001b\[[0-9;]*[A-Za-z]|\r/g, '').trim();
        if (line !== '') this.current = { ...this.current, progress: line };
      },
    });
    const report = await this.options.feedBack({
      input: saved.file,
      mappingFile: this.job.mappingFile,
      idPrefix: this.job.idPrefix,
      resultsFile: results,
      journalFile: saved.journal,
      evidenceDir: this.options.evidenceDir,
      service: this.target,
      logger: this.options.logger,
      progress,
    });
    if (report.fatal !== undefined) throw report.fatal as Error;
    this.current = {
      status: 'done',
      progress: 'done',
      file: saved.file,
      results,
      outcomes: report.summary.byOutcome,
      error: report.abortedBecause,
    };
  }
}
