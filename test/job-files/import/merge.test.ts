import { describe, expect, it } from 'vitest';
import { plainDialect } from '../../../src/csv/layout.js';
import { checkShards, mergeByLine, MergeRefusedError, type ShardJob } from '../../../src/job-files/import/merge.js';

/** The decisions of merge-results (docs/report.md), without files. */

const job = (file: string, index: number, count: number, changes: Partial<ShardJob> = {}): ShardJob => ({
  file,
  inputSha256: 'a'.repeat(64),
  mappingSha256: 'b'.repeat(64),
  fileMode: 'auto',
  dryRun: false,
  shard: { index, count },
  sourceColumns: ['ref', 'amount'],
  dialect: plainDialect,
  ...changes,
});

function refusal(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    if (error instanceof MergeRefusedError) return error.message;
    throw error;
  }
  throw new Error('expected a refusal, got none');
}

describe('checkShards', () => {
  it('gives the shards of one split in shard order', () => {
    expect(checkShards([job('c', 3, 3), job('a', 1, 3), job('b', 2, 3)]).map((shard) => shard.file)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('takes an import without --shard as the one shard of one', () => {
    expect(checkShards([job('whole', 1, 1, { shard: undefined })]).map((shard) => shard.file)).toEqual(['whole']);
  });

  it.each([
    {
      name: 'another input',
      jobs: [job('a', 1, 2), job('b', 2, 2, { inputSha256: 'c'.repeat(64) })],
      message:
        'b: expected the same input as the other shards, got another input (sha256 cccccccccccc…) than a (sha256 aaaaaaaaaaaa…)',
    },
    {
      name: 'another object',
      jobs: [
        job('a', 1, 2, { inputSha256: 's3://bank/exports/night.csv etag="0f1e" size=120' }),
        job('b', 2, 2, { inputSha256: 's3://bank/exports/night 2.csv etag="9a8b" version=v7 size=96' }),
      ],
      message:
        'b: expected the same input as the other shards, got another input (s3://bank/exports/night 2.csv ETag "9a8b" version v7) ' +
        'than a (s3://bank/exports/night.csv ETag "0f1e")',
    },
    {
      name: 'another mapping',
      jobs: [job('a', 1, 2), job('b', 2, 2, { mappingSha256: 'd'.repeat(64) })],
      message:
        'b: expected the same mapping as the other shards, got another mapping (sha256 dddddddddddd…) than a (sha256 bbbbbbbbbbbb…)',
    },
    {
      name: 'another file mode',
      jobs: [job('a', 1, 2), job('b', 2, 2, { fileMode: 'none' })],
      message: 'b: expected the same flags as the other shards, got file mode none against auto in a',
    },
    {
      name: 'a dry run beside a real one',
      jobs: [job('a', 1, 2), job('b', 2, 2, { dryRun: true })],
      message: 'b: expected the same flags as the other shards, got file mode auto, dry run against auto in a',
    },
    {
      name: 'another split',
      jobs: [job('a', 1, 2), job('b', 2, 4)],
      message: 'b: expected shards of one split, got shard 2/4 and shard 1/2 in a',
    },
    {
      name: 'another dialect',
      jobs: [job('a', 1, 2), job('b', 2, 2, { dialect: { ...plainDialect, delimiter: ';' } })],
      message:
        'b: expected results in one dialect, got delimiter ";", quote "\\"", LF, utf-8 against delimiter ",", quote "\\"", LF, utf-8 in a',
    },
    {
      name: 'other source columns',
      jobs: [job('a', 1, 2), job('b', 2, 2, { sourceColumns: ['ref'] })],
      message: 'b: expected the source columns of a, got others',
    },
    {
      name: 'a shard twice',
      jobs: [job('a', 1, 2), job('b', 2, 2), job('a2', 1, 2)],
      message: 'a2: expected each shard once, got shard 1/2 again (also a): their lines overlap',
    },
    {
      name: 'a shard missing',
      jobs: [job('a', 1, 4), job('c', 3, 4)],
      message: 'expected all 4 shards, got shard 2/4, 4/4 missing (given: shard 1/4 a, shard 3/4 c)',
    },
    { name: 'nothing', jobs: [], message: 'expected at least one shard, got none' },
  ])('refuses $name', ({ jobs, message }) => {
    expect(refusal(() => checkShards(jobs))).toBe(message);
  });
});

describe('mergeByLine', () => {
  const source = (file: string, lines: number[]) => ({
    file,
    rows: lines.map((line) => ({ line, file }))[Symbol.iterator](),
  });

  it('merges rows in input order, whatever the order of the sources', () => {
    const merged = [
      ...mergeByLine([source('b', [3, 4, 9]), source('a', [2, 7]), source('empty', []), source('c', [5, 6, 8])]),
    ];
    expect(merged.map((row) => [row.line, row.file])).toEqual([
      [2, 'a'],
      [3, 'b'],
      [4, 'b'],
      [5, 'c'],
      [6, 'c'],
      [7, 'a'],
      [8, 'c'],
      [9, 'b'],
    ]);
  });

  it('refuses a line two sources hold', () => {
    expect(refusal(() => [...mergeByLine([source('a', [2, 5]), source('b', [3, 5, 6])])])).toBe(
      'b: expected lines no other shard has, got line 5, also in a: their lines overlap',
    );
  });

  it('refuses a source out of input order', () => {
    expect(refusal(() => [...mergeByLine([source('a', [2, 6, 4])])])).toBe(
      'a: expected rows in input order, got line 4 after line 6',
    );
  });
});
