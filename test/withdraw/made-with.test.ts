import { describe, expect, it } from 'vitest';
import { withdrawMismatch } from '../../src/withdraw/made-with.js';
import type { WithdrawFingerprint } from '../../src/job-files/withdraw/meta.js';
import { changedPaths, describeChangedPaths } from '../../src/journal/made-with.js';

/** A refused withdraw journal names what differs (docs/withdraw.md); the mapping's changed keys are found by path. */

const made: WithdrawFingerprint = {
  format: '1',
  sources: ['a'.repeat(64), 'b'.repeat(64)],
  scope: 'claim',
  deleteUnfiled: false,
  outcomes: null,
  claimKeys: null,
  column: null,
  dryRun: false,
};

describe('a withdraw journal refusing other sources or flags', () => {
  it('names the source that differs by its place and sha256, and each flag with both values', () => {
    const now = { ...made, sources: ['a'.repeat(64), 'c'.repeat(64)], scope: 'case', outcomes: ['filed', 'not_filed'] };

    const error = withdrawMismatch('w.journal.sqlite', made, now);

    expect(error.code).toBe('JOURNAL_MISMATCH');
    expect(error.message).toBe(
      'journal w.journal.sqlite: expected the sources and flags it was made with, got source files that differ from ' +
        'those the journal was made with: source 2 (sha256 bbbbbbbbbbbb… vs cccccccccccc…); --scope: claim → case; ' +
        '--outcome: not given → filed, not_filed. To resume it, run again with the same source files, in the same order, ' +
        '--scope claim, no --outcome; to start it over with the new ones, add --restart (what it sent is settled, never ' +
        'sent twice), or give another --journal file',
    );
  });
});

describe('changed paths between two documents', () => {
  it('finds nested keys, added and removed ones, and list items, in document order', () => {
    const then = { file_mode: 'auto', fields: { reason: { column: 'R', map: { FR: 'fraud' } } }, tags: ['a', 'b'] };
    const now = {
      file_mode: 'none',
      fields: { reason: { column: 'R', map: { FR: 'fraud', DU: 'duplicate' } } },
      tags: ['a', 'c'],
    };

    expect(describeChangedPaths(changedPaths(then, now))).toBe(
      'file_mode: "auto" → "none", fields.reason.map.DU: (none) → "duplicate", tags[1]: "b" → "c"',
    );
    expect(changedPaths(then, structuredClone(then))).toEqual([]);
  });
});
