import { RefusalError } from '../errors/coded-error.js';

/**
 * The file is none of our results files or journals (a CSV of another header, a damaged or foreign
 * SQLite file, a journal whose staging stopped). Here, below every reader of results: the report,
 * merge-results (merge-journals.ts), withdraw's sources and the review each refuse with it.
 */
export class NotResultsError extends RefusalError {
  readonly code = 'REPORT_NOT_RESULTS';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'NotResultsError';
  }
}
