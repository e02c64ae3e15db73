import { InvalidArgumentError } from 'commander';

/** Flag value parsers shared by the commands; each says "expected …, got …". */

export function integer(flag: string, min: number, max: number) {
  return (value: string): number => {
    const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(parsed >= min && parsed <= max)) throw new InvalidArgumentError(`${flag}: expected a whole number from ${min} to ${max}, got ${value}`);
    return parsed;
  };
}

/** `--max-rps`'s help line: import, export and migrate-v1 all take it. */
export const maxRpsHelp = 'requests per second for the whole job, retries and uploads included (default: CLAIMS_MAX_RPS, else no limit; 0.5 is one every 2 s)';

/** A positive decimal such as 45 or 0.5 (`--max-rps`); the same words for the flag and its variable. */
export function positiveNumber(flag: string) {
  return (value: string): number => {
    const parsed = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!(parsed > 0) || !Number.isFinite(parsed)) throw new InvalidArgumentError(`${flag}: expected a positive number, got ${value}`);
    return parsed;
  };
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
