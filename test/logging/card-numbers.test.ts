import { describe, expect, it } from 'vitest';
import { logOutput } from '../../src/cli/log-output.js';
import { createLogger } from '../../src/logging/logger.js';
import { maskCardNumbersInJsonLine } from '../../src/logging/card-numbers.js';
import { Progress } from '../../src/progress/progress.js';

/** Luhn-valid Visa numbers, as a cardholder's statement or a careless field might carry them. */
const card = '4970101000000012';
const grouped = '4970 1010 0000 0012';
const masked = '497010******0012';
/** What must stay as it is: an ARN (23 digits), an amount, a date. */
const arn = '74970101234567890123456';
const untouched = `ARN ${arn}, 1234567.89 EUR on 2026-11-20`;

function jsonLines(): { lines: string[]; write(line: string): void } {
  const lines: string[] = [];
  return { lines, write: (line) => lines.push(line) };
}

describe('card numbers in logs', () => {
  it('a JSON log line: masked in the message, in a field, deep in an object and a list, and in a number', () => {
    const destination = jsonLines();
    createLogger({ destination }).warn(
      {
        statement: `ma carte ${grouped} a été débitée deux fois`,
        row: { cells: ['x', card], reference: untouched },
        pan: Number(card),
        arn,
        amount: 1234567.89,
      },
      `row refused: ${card}; ${untouched}`,
    );
    const [line = ''] = destination.lines;
    expect(line).not.toContain(card);
    expect(line).not.toContain(grouped);
    const record = JSON.parse(line) as Record<string, unknown>;
    expect(record.msg).toBe(`row refused: ${masked}; ${untouched}`);
    expect(record.statement).toBe('ma carte 497010******0012 a été débitée deux fois');
    expect(record.row).toEqual({ cells: ['x', masked], reference: untouched });
    expect(record.pan).toBe(masked);
    expect(record.arn).toBe(arn);
    expect(record.amount).toBe(1234567.89);
  });

  it("a child logger's bindings and an error's message and stack are masked too", () => {
    const destination = jsonLines();
    const logger = createLogger({ destination }).child({ claimKey: card });
    logger.error({ err: new Error(`cannot read ${card}`) }, 'failed');
    const [line = ''] = destination.lines;
    expect(line).not.toContain(card);
    const record = JSON.parse(line) as { claimKey: string; err: { message: string; stack: string } };
    expect(record.claimKey).toBe(masked);
    expect(record.err.message).toBe(`cannot read ${masked}`);
    expect(record.err.stack).toContain(`Error: cannot read ${masked}`);
  });

  it('a control character glued to a card number (a \\u escape in JSON) hides nothing', () => {
    const line = JSON.stringify({ msg: `\u0001${card}`, time: 1764339379000 });
    expect(line).toContain('\\u0001');
    expect(JSON.parse(maskCardNumbersInJsonLine(line))).toEqual({ msg: `\u0001${masked}`, time: 1764339379000 });
  });

  it('a line with no card number is given back as it is', () => {
    const line = JSON.stringify({ level: 30, time: 1764339379000, msg: untouched, rows: 1234567890123 });
    expect(maskCardNumbersInJsonLine(line)).toBe(line);
  });
});

describe('card numbers on the terminal', () => {
  function terminal() {
    const written: string[] = [];
    const stderr = { isTTY: true, columns: 120, write: (text: string) => written.push(text) };
    const io = { stdout: { write: () => true }, stderr, env: { NO_COLOR: '1' } };
    const output = logOutput({ level: 'info', format: 'pretty', io, progress: new Progress(stderr) });
    return { output, text: () => written.join('') };
  }

  it('a human log line: masked in the message and in a field; an ARN, an amount and a date are not', () => {
    const { output, text } = terminal();
    output.logger.warn(
      { statement: `ma carte ${grouped}`, arn, amount: 1234567.89 },
      `row refused: ${card}; ${untouched}`,
    );
    expect(text()).toContain(
      `WARN: row refused: ${masked}; ${untouched}  statement="ma carte ${masked}" arn=${arn} amount=1234567.89\n`,
    );
    expect(text()).not.toContain(card);
  });

  it("a run's failure, the sentence written straight to the terminal, is masked", () => {
    const { output, text } = terminal();
    output.fatal(new Error(`export.csv:3: claim_key: expected no card number, got ${grouped} (${untouched})`));
    expect(text()).toBe(
      `bulk-disputes: export.csv:3: claim_key: expected no card number, got ${masked} (${untouched})\n`,
    );
  });
});
