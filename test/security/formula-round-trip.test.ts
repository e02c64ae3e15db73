import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutralise, restore } from '../../src/csv/neutralise.js';
import {
  csvOf,
  fraudRow,
  importArgs,
  makeWorkspace,
  readPayloads,
  readResults,
  runCli,
} from '../import/e2e-fixtures.js';

/**
 * Results cells that a spreadsheet would run get a leading apostrophe, and a results file fed back
 * has it taken off again. A source cell that itself starts with an apostrophe before a formula
 * (`'=literal`) must come back as it was, not as `=literal`.
 */

const formulaLike = /^[=+@\t\r]|^-(?![\d.,]+$)/;

describe('neutralise and restore', () => {
  it('are inverses for every cell, and no written cell starts like a formula', () => {
    const cells = fc.oneof(
      fc.string(),
      fc
        .tuple(fc.nat({ max: 4 }), fc.constantFrom('=', '+', '-', '@', '\t', '\r', '-1', '+2', 'x', ''), fc.string())
        .map(([apostrophes, start, rest]) => `${"'".repeat(apostrophes)}${start}${rest}`),
    );
    fc.assert(
      fc.property(cells, (cell) => {
        const written = neutralise(cell);
        expect(restore(written)).toBe(cell);
        expect(formulaLike.test(written) && !/^[+-]?\d+(?:[.,]\d+)*$/.test(written)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('keep a cell of a million apostrophes in linear time, without recursion', () => {
    const cell = `${"'".repeat(1_000_000)}=1+1`;
    expect(restore(neutralise(cell))).toBe(cell);
  });
});

describe('a results file fed back', () => {
  it("sends a source cell '=literal as '=literal", async () => {
    const workspace = await makeWorkspace();
    const literal = "'=literal";
    const input = await workspace.write(
      'disputes.csv',
      csvOf([fraudRow('A', 'T1', { cardholder_name: literal, cardholder_statement: "''+1 not a formula" })]),
    );
    const first = await runCli(importArgs(workspace, input, ['--dry-run']), {});
    expect(first.exitCode, first.stderr).toBe(0);
    const written = await readResults(workspace.results);
    expect(written.rows[0]?.cardholder_name).toBe("''=literal");
    const fedBack = await workspace.write('fed-back.results.csv', written.text);
    const payloads = `${workspace.payloads}.fed-back`;

    const second = await runCli(
      importArgs({ ...workspace, results: `${fedBack}.again.csv`, journal: `${workspace.journal}.again` }, fedBack, [
        '--dry-run',
        '--payloads',
        payloads,
      ]),
      {},
    );

    expect(second.exitCode, second.stderr).toBe(0);
    const [payload] = await readPayloads(payloads);
    expect(payload?.cardholder).toMatchObject({ name: literal });
    expect(JSON.stringify(payload)).toContain("''+1 not a formula");
  });
});
