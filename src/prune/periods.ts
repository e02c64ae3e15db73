/**
 * A retention period as a person writes it (docs/data.md, "Retention"): a whole number and a
 * unit, days `d`, weeks `w`, months `m` or years `y` (`90d`, `7y`, `0d`). Months and years are
 * calendar ones: `7y` after 2026-02-28 is 2033-02-28, as a bank's retention rule reads.
 */
export interface Period {
  /** As written, for the record and the messages. */
  readonly text: string;
  readonly count: number;
  readonly unit: 'd' | 'w' | 'm' | 'y';
}

const pattern = /^(\d{1,5})([dwmy])$/;

/** The period `text` writes, or what is wrong with it as "expected …, got …". */
export function parsePeriod(text: string): Period | { readonly problem: string } {
  const found = pattern.exec(text.trim());
  if (found === null)
    return {
      problem: `expected a whole number and a unit (d, w, m or y), such as 90d or 7y, got ${JSON.stringify(text)}`,
    };
  return { text: text.trim(), count: Number(found[1]), unit: found[2] as Period['unit'] };
}

/** The time `period` after `from`. */
export function after(from: Date, period: Period): Date {
  const date = new Date(from.getTime());
  switch (period.unit) {
    case 'd':
      date.setUTCDate(date.getUTCDate() + period.count);
      return date;
    case 'w':
      date.setUTCDate(date.getUTCDate() + 7 * period.count);
      return date;
    case 'm':
      return addMonths(date, period.count);
    case 'y':
      return addMonths(date, 12 * period.count);
  }
}

/** Calendar months; a day the month lacks becomes its last (31 January + 1m is 28 or 29 February). */
function addMonths(date: Date, months: number): Date {
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return date;
}

/** Roughly how long a period is, in days: to tell that one is shorter than another, and for the alert rule. */
export function approximateDays(period: Period): number {
  const perUnit = { d: 1, w: 7, m: 30.44, y: 365.25 } as const;
  return period.count * perUnit[period.unit];
}

/** A period in seconds, near enough (months of 30.44 days): what the metrics and the alert rule compare. */
export function policySeconds(period: Period): number {
  return Math.round(approximateDays(period) * 86_400);
}
