import { InvalidArgumentError } from 'commander';

/** Flag value parsers shared by the commands; each says "expected …, got …". */

export function integer(flag: string, min: number, max: number) {
  return (value: string): number => {
    const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(parsed >= min && parsed <= max)) throw new InvalidArgumentError(`${flag}: expected a whole number from ${min} to ${max}, got ${value}`);
    return parsed;
  };
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
