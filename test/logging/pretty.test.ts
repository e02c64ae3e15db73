import { describe, expect, it } from 'vitest';
import { chooseLogFormat, colourOn } from '../../src/cli/log-output.js';
import { logFields, prettyLogLine } from '../../src/logging/pretty.js';

describe('human log lines', () => {
  it('a record as one line: time, level, message, then its own plain fields', () => {
    const pretty = prettyLogLine({ colorize: false });
    const time = new Date(2026, 10, 20, 14, 3, 22).getTime();
    const line = pretty(
      JSON.stringify({
        level: 40,
        time,
        pid: 7,
        hostname: 'h',
        name: 'bulk-disputes',
        claimId: 'clm_1',
        code: 'CLAIMS_HTTP_503',
        error: 'POST /v2/issuer/claims: 503',
        throttling: { requests: 4 },
        msg: 'claim failed; the next run retries it',
      }),
    );
    expect(line).toBe(
      '[14:03:22] WARN: claim failed; the next run retries it  claimId=clm_1 code=CLAIMS_HTTP_503 error="POST /v2/issuer/claims: 503"\n',
    );
  });

  it("shows scalars and short lists, an error's message; leaves nested objects to the JSON format", () => {
    expect(
      logFields({
        level: 30,
        msg: 'x',
        rows: 600,
        resultsInput: false,
        claimKeys: ['a', 'b'],
        outcomes: { filed: 3 },
        err: { type: 'Error', message: 'disk full', stack: 'Error: disk full\n  at …' },
        nothing: null,
      }),
    ).toBe('rows=600 resultsInput=false claimKeys=a,b err="disk full"');
    expect(logFields({ many: [1, 2, 3, 4, 5, 6], empty: '' })).toBe('empty=""');
  });

  it('an unforeseen error keeps its stack under the line', () => {
    const line = prettyLogLine({ colorize: false })(
      JSON.stringify({
        level: 20,
        time: 0,
        err: {
          type: 'TypeError',
          message: 'x is undefined',
          stack: 'TypeError: x is undefined\n    at run (a.js:1:1)',
        },
        msg: 'the failure below, with its stack',
      }),
    );
    expect(line).toMatch(
      /DEBUG: the failure below, with its stack {2}err="x is undefined"\n {4}TypeError: x is undefined\n {8}at run \(a\.js:1:1\)\n$/,
    );
  });

  it('colours only when asked', () => {
    const line = prettyLogLine({ colorize: true })(
      JSON.stringify({ level: 30, time: 0, msg: 'input staged', rows: 1 }),
    );
    expect(line).toContain('\u001b[');
  });
});

describe('which format, which colours', () => {
  it('pretty on a terminal, JSON otherwise, unless chosen', () => {
    expect(chooseLogFormat(undefined, { isTTY: true })).toBe('pretty');
    expect(chooseLogFormat(undefined, {})).toBe('json');
    expect(chooseLogFormat('json', { isTTY: true })).toBe('json');
    expect(chooseLogFormat('pretty', { isTTY: false })).toBe('pretty');
  });

  it('colour on a terminal unless NO_COLOR is set or the terminal is dumb', () => {
    expect(colourOn({ isTTY: true }, {})).toBe(true);
    expect(colourOn({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourOn({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colourOn({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(colourOn({ isTTY: false }, {})).toBe(false);
  });
});
