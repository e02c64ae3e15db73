import { RetentionPolicyError } from './errors.js';
import { approximateDays, parsePeriod, type Period } from './periods.js';

/**
 * How long a finished job's files stay (docs/data.md, "Retention"): its personal data
 * `keepPersonalData` after its last case closed, its skeleton (the thinned journals: keys, ids,
 * outcomes) `keepRecords` after. From the flags, else the environment (the nightly job's
 * setting), else the defaults.
 */
export interface RetentionPolicy {
  readonly keepPersonalData: Period;
  readonly keepRecords: Period;
}

export const defaultKeepPersonalData = '90d';
export const defaultKeepRecords = '7y';
export const keepPersonalDataVariable = 'BULK_DISPUTES_KEEP_PERSONAL_DATA';
export const keepRecordsVariable = 'BULK_DISPUTES_KEEP_RECORDS';

export interface RetentionRequest {
  readonly keepPersonalData?: string | undefined;
  readonly keepRecords?: string | undefined;
}

export function resolveRetentionPolicy(
  request: RetentionRequest,
  env: Readonly<Record<string, string | undefined>>,
): RetentionPolicy {
  const period = (flag: string, given: string | undefined, variable: string, fallback: string): Period => {
    const [text, from] =
      given !== undefined
        ? [given, flag]
        : env[variable] !== undefined && env[variable] !== ''
          ? [env[variable], variable]
          : [fallback, `${flag}'s default`];
    const parsed = parsePeriod(text);
    if ('problem' in parsed) throw new RetentionPolicyError(`${from}: ${parsed.problem}`);
    return parsed;
  };
  const keepPersonalData = period(
    '--keep-personal-data',
    request.keepPersonalData,
    keepPersonalDataVariable,
    defaultKeepPersonalData,
  );
  const keepRecords = period('--keep-records', request.keepRecords, keepRecordsVariable, defaultKeepRecords);
  if (approximateDays(keepRecords) < approximateDays(keepPersonalData))
    throw new RetentionPolicyError(
      `--keep-records: expected at least --keep-personal-data (${keepPersonalData.text}): a job's records outlive its personal data, got ${keepRecords.text}`,
    );
  return { keepPersonalData, keepRecords };
}
