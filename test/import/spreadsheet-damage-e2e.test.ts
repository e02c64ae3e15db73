import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServiceBehindDoor } from '../helpers/service-doors.js';
import { csvOf, fraudRow, genericMapping, makeWorkspace, readResults, runBin } from './e2e-fixtures.js';

/**
 * One export with what a spreadsheet does to it (an ARN in scientific notation, a last4 and an MCC
 * short of their zeros, a date as a serial number; docs/import.md, "What a spreadsheet does to
 * the cells"). Each such row is refused with its code and never reaches the service; the other
 * rows are filed. A real sandbox process, requests counted at its door.
 */

const liveKey = 'live_damage_key_0001';

describe('spreadsheet damage is refused, never sent', () => {
  it(
    'each damaged row (and an ARN of 22 digits) invalid with its code and column, 0 requests for its claim; the rest filed',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const service = await startServiceBehindDoor([liveKey]);
      await workspace.write(
        'disputes.csv',
        csvOf([
          fraudRow('ARN-SCI', 'T1', { arn: '7.44922E+22' }),
          fraudRow('ARN-LEN', 'T1', { arn: '7449215630200018473625' }),
          fraudRow('LAST4', 'T1', { card_last4: '417' }),
          fraudRow('MCC', 'T1', { mcc: '732' }),
          fraudRow('SERIAL', 'T1', { transaction_date: '46021' }),
          fraudRow('GOOD', 'T1'),
        ]),
      );
      const run = await runBin(
        ['import', 'disputes.csv', '--mapping', genericMapping, '--evidence-dir', 'evidence', '--log-level', 'warn'],
        { CLAIMS_BASE_URL: service.url, CLAIMS_API_KEY: liveKey },
        { cwd: workspace.dir },
      );
      expect(run.exitCode, run.stderr).toBe(1);
      const { rows } = await readResults(join(workspace.dir, 'disputes.results.csv'));
      expect(rows.map((row) => [row.dispute_ref, row.outcome, row.error_code, row.error_field])).toEqual([
        ['ARN-SCI', 'invalid', 'spreadsheet_damaged', 'case.transaction.arn'],
        ['ARN-LEN', 'invalid', 'arn_invalid', 'case.transaction.arn'],
        ['LAST4', 'invalid', 'leading_zeros_dropped', 'shared.card.last4'],
        ['MCC', 'invalid', 'leading_zeros_dropped', 'case.merchant.category_code'],
        ['SERIAL', 'invalid', 'date_format', 'case.transaction.date'],
        ['GOOD', 'filed', '', ''],
      ]);
      expect(rows[4]?.error_message).toContain('serial number for 2025-12-30');
      // Only the good claim reached the service.
      const touched = service.door.requests().filter((request) => /ARN-|LAST4|MCC|SERIAL/.test(request));
      expect(touched).toEqual([]);
      expect(service.door.requests()).toContain('POST /v2/issuer/new_claim');
      expect(service.door.requests().filter((request) => request === 'POST /v2/issuer/new_claim')).toHaveLength(1);
    },
  );
});
