import { describe, expect, it } from 'vitest';
import { flagDifferences, formatDifference, madeWithRefusal } from '../../src/journal/made-with.js';

/** The parts every job's refusal of a journal made for another run is built of (src/journal/made-with.ts). */

describe('the flags that differ from a journal’s', () => {
  it('names each flag that differs, in the order given, and none that is the same', () => {
    const differences = flagDifferences([
      ['--scope', 'claim', 'case'],
      ['--delete-unfiled', false, false],
      ['--outcome', undefined, 'filed, not_filed'],
      ['--dry-run', true, false],
      ['--column', 'id', 'id'],
    ]);

    expect(differences).toEqual([
      { said: '--scope: claim → case', resume: '--scope claim' },
      { said: '--outcome: not given → filed, not_filed', resume: 'no --outcome' },
      { said: '--dry-run: given → not given', resume: '--dry-run' },
    ]);
  });

  it('a journal of another format names the version that made it', () => {
    expect(formatDifference('0')).toEqual({
      said: 'a journal of format "0", written by another version of bulk-disputes',
      resume: 'the version that made it',
    });
  });
});

describe('a job’s refusal of a journal made for another run', () => {
  it('passes what it compares to the job’s differences and says them in one JOURNAL_MISMATCH', () => {
    const compared: unknown[] = [];
    const refusal = madeWithRefusal('sources and flags', 'nothing sent twice', (then: string, now: string) => {
      compared.push([then, now]);
      return flagDifferences([['--scope', then, now]]);
    });

    const error = refusal('j.sqlite', 'claim', 'case');

    expect(compared).toEqual([['claim', 'case']]);
    expect(error.code).toBe('JOURNAL_MISMATCH');
    expect(error.message).toBe(
      'journal j.sqlite: expected the sources and flags it was made with, got --scope: claim → case. To resume it, ' +
        'run again with --scope claim; to start it over with the new ones, add --restart (nothing sent twice), or ' +
        'give another --journal file',
    );
  });
});
