import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { toDateTime, type DateOptions } from '../../../src/mapping/transforms/date.js';

const run = promisify(execFile);

/** Cases whose output must not depend on the host: checked in-process and in child processes. */
const HOST_INDEPENDENT: readonly { text: string; options: DateOptions; expected: string }[] = [
  { text: '2026-03-15', options: { format: 'yyyy-MM-dd', timeZone: 'UTC' }, expected: '2026-03-15T00:00:00.000Z' },
  {
    text: '2026-03-15',
    options: { format: 'yyyy-MM-dd', timeZone: 'Pacific/Kiritimati' },
    expected: '2026-03-15T00:00:00.000Z',
  },
  {
    text: '2026-03-15',
    options: { format: 'yyyy-MM-dd', timeZone: 'America/Los_Angeles' },
    expected: '2026-03-15T00:00:00.000Z',
  },
  {
    text: '15.03.2026',
    options: { format: 'dd.MM.yyyy', timeZone: 'Pacific/Pago_Pago' },
    expected: '2026-03-15T00:00:00.000Z',
  },
  {
    text: '15 Mar 2026',
    options: { format: 'dd MMM yyyy', timeZone: 'Asia/Tokyo' },
    expected: '2026-03-15T00:00:00.000Z',
  },
  {
    text: '2026-03-15 00:30',
    options: { format: 'yyyy-MM-dd HH:mm', timeZone: 'Pacific/Kiritimati' },
    expected: '2026-03-14T10:30:00.000Z',
  },
  {
    text: '2026-03-15 23:30',
    options: { format: 'yyyy-MM-dd HH:mm', timeZone: 'America/Los_Angeles' },
    expected: '2026-03-16T06:30:00.000Z',
  },
];

describe('toDateTime: a date-only value never shifts with the time zone', () => {
  it('keeps a date-only 2026-03-15 on 2026-03-15 in every zone', () => {
    for (const { text, options, expected } of HOST_INDEPENDENT) {
      expect(toDateTime(text, options), `${text} ${options.timeZone}`).toEqual({ ok: true, value: expected });
    }
  });

  describe('under a changed process time zone', () => {
    const originalTz = process.env.TZ;
    afterEach(() => {
      // Node re-reads TZ on assignment; restore it so other tests in this worker are unaffected.
      if (originalTz === undefined) delete process.env.TZ;
      else process.env.TZ = originalTz;
    });

    for (const tz of ['Pacific/Kiritimati', 'America/Los_Angeles']) {
      it(`gives the same results in-process with TZ=${tz}`, () => {
        process.env.TZ = tz;
        expect(new Date(2026, 2, 15).getTimezoneOffset()).not.toBe(0);
        for (const { text, options, expected } of HOST_INDEPENDENT) {
          expect(toDateTime(text, options)).toEqual({ ok: true, value: expected });
        }
      });
    }
  });

  // The child runs the compiled module: plain node has no TypeScript loader. `npm test` builds
  // before vitest runs, so this only skips when vitest is run alone on a clean checkout.
  const compiled = fileURLToPath(new URL('../../../dist/mapping/transforms/date.js', import.meta.url));
  const built = existsSync(compiled);
  const title = built
    ? 'in child processes with TZ set (compiled module)'
    : 'in child processes with TZ set: SKIPPED, dist/mapping/transforms/date.js missing, run `npm run build`';

  describe.skipIf(!built)(title, () => {
    for (const tz of ['Pacific/Kiritimati', 'America/Los_Angeles']) {
      it(`gives the same results with TZ=${tz}`, async () => {
        const script = [
          `import { toDateTime } from ${JSON.stringify(pathToFileURL(compiled).href)};`,
          `const cases = ${JSON.stringify(HOST_INDEPENDENT)};`,
          'const offset = new Date(2026, 2, 15).getTimezoneOffset();',
          'console.log(JSON.stringify({ offset, results: cases.map((c) => toDateTime(c.text, c.options)) }));',
        ].join('\n');
        const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
          env: { ...process.env, TZ: tz, LANG: 'tr_TR.UTF-8' },
        });
        const output = JSON.parse(stdout) as { offset: number; results: unknown[] };
        // Proves the child really ran in a zone where local midnight is not UTC midnight.
        expect(output.offset).not.toBe(0);
        expect(output.results).toEqual(HOST_INDEPENDENT.map(({ expected }) => ({ ok: true, value: expected })));
      });
    }
  });
});

describe('toDateTime', () => {
  const isoDate: DateOptions = { format: 'yyyy-MM-dd', timeZone: 'Europe/Berlin' };
  const berlinTime: DateOptions = { format: 'dd.MM.yyyy HH:mm', timeZone: 'Europe/Berlin' };

  it('reads times in the given zone, across DST, and outputs UTC with Z', () => {
    expect(toDateTime('15.01.2026 10:00', berlinTime)).toEqual({ ok: true, value: '2026-01-15T09:00:00.000Z' });
    expect(toDateTime('15.07.2026 10:00', berlinTime)).toEqual({ ok: true, value: '2026-07-15T08:00:00.000Z' });
    expect(toDateTime('2026-03-15T10:00:00', { format: "yyyy-MM-dd'T'HH:mm:ss", timeZone: 'UTC' })).toEqual({
      ok: true,
      value: '2026-03-15T10:00:00.000Z',
    });
  });

  it('honours an offset written in the text over the zone', () => {
    expect(
      toDateTime('2026-03-15 10:00 +02:00', { format: 'yyyy-MM-dd HH:mm ZZ', timeZone: 'America/New_York' }),
    ).toEqual({
      ok: true,
      value: '2026-03-15T08:00:00.000Z',
    });
  });

  it('rejects a local time skipped by daylight saving instead of moving it', () => {
    expect(toDateTime('29.03.2026 02:30', berlinTime)).toMatchObject({
      ok: false,
      code: 'date_nonexistent_local_time',
    });
  });

  it('trims, and rejects empty cells', () => {
    expect(toDateTime(' 2026-03-15 ', isoDate)).toEqual({ ok: true, value: '2026-03-15T00:00:00.000Z' });
    expect(toDateTime('', isoDate)).toMatchObject({ ok: false, code: 'date_empty' });
    expect(toDateTime('  ', isoDate)).toMatchObject({ ok: false, code: 'date_empty' });
  });

  it('rejects dates that do not exist', () => {
    expect(toDateTime('2026-02-30', isoDate)).toEqual({
      ok: false,
      code: 'date_invalid',
      message: 'date: expected an existing date, got "2026-02-30"',
    });
    expect(toDateTime('2026-13-01', isoDate)).toMatchObject({ ok: false, code: 'date_invalid' });
    expect(toDateTime('2025-02-29', isoDate)).toMatchObject({ ok: false, code: 'date_invalid' });
    expect(toDateTime('2024-02-29', isoDate)).toEqual({ ok: true, value: '2024-02-29T00:00:00.000Z' });
  });

  it('rejects text in another format', () => {
    expect(toDateTime('15/03/2026', isoDate)).toEqual({
      ok: false,
      code: 'date_format',
      message: 'date: expected a date as "yyyy-MM-dd", got "15/03/2026"',
    });
    expect(toDateTime('2026-03-15 10:00', isoDate)).toMatchObject({ ok: false, code: 'date_format' });
    expect(toDateTime('15.03.2026', berlinTime)).toMatchObject({ ok: false, code: 'date_format' });
  });

  it('rejects an unknown zone, even for date-only formats', () => {
    expect(toDateTime('2026-03-15', { format: 'yyyy-MM-dd', timeZone: 'Mars/Olympus_Mons' })).toEqual({
      ok: false,
      code: 'time_zone_unknown',
      message: 'date.timeZone: expected an IANA time zone like "Europe/Berlin", got "Mars/Olympus_Mons"',
    });
    expect(toDateTime('2026-03-15', { format: 'yyyy-MM-dd', timeZone: '' })).toMatchObject({
      code: 'time_zone_unknown',
    });
  });

  it('rejects a format without a year, which would be filled from the clock', () => {
    expect(toDateTime('15.03', { format: 'dd.MM', timeZone: 'UTC' })).toMatchObject({
      ok: false,
      code: 'options_invalid',
    });
    expect(toDateTime('15.03', { format: "dd.MM 'year'", timeZone: 'UTC' })).toMatchObject({
      ok: false,
      code: 'options_invalid',
    });
  });
});

describe('toDateTime: compact dates as bank reports write them', () => {
  it('reads yyyyMMdd and yyMMdd as the calendar date written, in any zone', () => {
    for (const timeZone of ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
      expect(toDateTime('20240703', { format: 'yyyyMMdd', timeZone })).toEqual({
        ok: true,
        value: '2024-07-03T00:00:00.000Z',
      });
      expect(toDateTime('240703', { format: 'yyMMdd', timeZone })).toEqual({
        ok: true,
        value: '2024-07-03T00:00:00.000Z',
      });
    }
    expect(toDateTime('20240230', { format: 'yyyyMMdd', timeZone: 'UTC' })).toMatchObject({ code: 'date_invalid' });
    for (const text of ['2024073', '202407031', '2024-07-03', '994268.00000'])
      expect(toDateTime(text, { format: 'yyyyMMdd', timeZone: 'UTC' }), text).toMatchObject({ code: 'date_format' });
  });

  it("reads a compact timestamp without a zone as wall-clock time in the mapping's zone", () => {
    expect(toDateTime('20240703 14:30', { format: 'yyyyMMdd HH:mm', timeZone: 'Europe/Berlin' })).toEqual({
      ok: true,
      value: '2024-07-03T12:30:00.000Z',
    });
    expect(toDateTime('20240703143000', { format: 'yyyyMMddHHmmss', timeZone: 'America/New_York' })).toEqual({
      ok: true,
      value: '2024-07-03T18:30:00.000Z',
    });
    expect(toDateTime('20240331 02:30', { format: 'yyyyMMdd HH:mm', timeZone: 'Europe/Berlin' })).toMatchObject({
      code: 'date_nonexistent_local_time',
    });
  });
});

describe('toDateTime: format "iso"', () => {
  const iso = (text: string, timeZone = 'UTC') => toDateTime(text, { format: 'iso', timeZone });

  it('reads ISO 8601 with and without seconds, fractions and offsets alike', () => {
    expect(iso('2000-01-01T20:05:30Z')).toEqual({ ok: true, value: '2000-01-01T20:05:30.000Z' });
    expect(iso('2001-02-04T00:00:00.888Z')).toEqual({ ok: true, value: '2001-02-04T00:00:00.888Z' });
    expect(iso('2026-03-15T20:05+01:00')).toEqual({ ok: true, value: '2026-03-15T19:05:00.000Z' });
  });

  it('reads a time without an offset in the zone, and a date alone as its calendar date in every zone', () => {
    expect(iso('2026-07-01T12:00:00', 'Europe/Berlin')).toEqual({ ok: true, value: '2026-07-01T10:00:00.000Z' });
    expect(iso('2026-03-15', 'Pacific/Auckland')).toEqual({ ok: true, value: '2026-03-15T00:00:00.000Z' });
  });

  it('refuses what is not ISO 8601, and a date that does not exist', () => {
    expect(iso('03/15/2026')).toMatchObject({ ok: false, code: 'date_format' });
    expect(iso('2026-02-30')).toMatchObject({ ok: false, code: 'date_invalid' });
    expect(iso('')).toMatchObject({ ok: false, code: 'date_empty' });
  });
});
