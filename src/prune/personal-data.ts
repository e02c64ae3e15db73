import type { JournalKind } from '../journal/kind.js';
import type { BelongingRole } from './recognise.js';

/**
 * The kinds of personal data each file of a job holds (docs/data.md, "Every file, by job"), as the
 * dry run and the prune record name what goes: words, never the data.
 */
export function personalDataOfJournal(kind: JournalKind): readonly string[] {
  switch (kind) {
    case 'import':
      return [
        'rows as read',
        'cardholder names',
        'e-mails',
        'addresses',
        'statements',
        'evidence paths',
        'messages quoting a row',
      ];
    case 'migrate-v1':
      return ['values cases were grouped by'];
    case 'track':
      return ['messages copied from its sources'];
    case 'withdraw':
      return [];
  }
}

export function personalDataOfFile(role: BelongingRole, kind: JournalKind): readonly string[] {
  switch (role) {
    case 'results':
      return kind === 'import' ? ['rows as read'] : kind === 'migrate-v1' ? ['values cases were grouped by'] : [];
    case 'fix-file':
      return ['rows as read'];
    case 'payloads':
      return ['claims as sent: cardholder details, statements'];
    case 'review-store':
      return ["reviewers' edits of rows"];
    case 'status':
    case 'worklist':
    case 'page':
      return ['messages copied from its sources'];
  }
}
