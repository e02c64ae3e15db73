import { describe, expect, it } from 'vitest';
import {
  changeCase,
  mapEnum,
  required,
  split,
  splitAll,
  toBoolean,
  toInteger,
  trim,
  withDefault,
} from '../../../src/mapping/transforms/scalars.js';

describe('toInteger', () => {
  it('reads signed whole numbers, trimmed', () => {
    expect(toInteger(' 42 ')).toEqual({ ok: true, value: 42 });
    expect(toInteger('-7')).toEqual({ ok: true, value: -7 });
    expect(toInteger('+007')).toEqual({ ok: true, value: 7 });
  });

  it('rejects everything else', () => {
    for (const text of ['', ' ', '12.0', '1e3', '0x10', '1,000', 'twelve', '١٢']) {
      expect(toInteger(text), text).toMatchObject({ ok: false, code: 'integer_invalid' });
    }
    expect(toInteger('12.5')).toEqual({
      ok: false,
      code: 'integer_invalid',
      message: 'integer: expected a whole number, got "12.5"',
    });
    expect(toInteger('9007199254740992')).toMatchObject({ ok: false, code: 'integer_out_of_range' });
  });
});

describe('toBoolean', () => {
  it('accepts yes/no/y/n/1/0/true/false in any case', () => {
    for (const text of ['yes', 'YES', 'y', 'Y', '1', 'true', 'True', ' TRUE '])
      expect(toBoolean(text), text).toEqual({ ok: true, value: true });
    for (const text of ['no', 'No', 'n', 'N', '0', 'false', 'FALSE'])
      expect(toBoolean(text), text).toEqual({ ok: true, value: false });
  });

  it('rejects anything else', () => {
    for (const text of ['', 'x', 'on', 'off', 'ja', '2', 'yes please']) {
      expect(toBoolean(text), text).toMatchObject({ ok: false, code: 'boolean_invalid' });
    }
    expect(toBoolean('maybe')).toEqual({
      ok: false,
      code: 'boolean_invalid',
      message: 'boolean: expected one of yes/no/y/n/1/0/true/false, got "maybe"',
    });
  });
});

describe('trim and changeCase', () => {
  it('trims whitespace on both ends', () => {
    expect(trim('  a b \t\r\n')).toEqual({ ok: true, value: 'a b' });
  });

  it('changes case without the host locale', () => {
    expect(changeCase('visa', 'upper')).toEqual({ ok: true, value: 'VISA' });
    expect(changeCase('VISA', 'lower')).toEqual({ ok: true, value: 'visa' });
    expect(changeCase('i', 'upper')).toEqual({ ok: true, value: 'I' });
  });
});

describe('mapEnum', () => {
  const reasons = { FR: 'fraud', PNR: 'product_not_received' };

  it('maps known values, case-sensitive by default', () => {
    expect(mapEnum('FR', reasons)).toEqual({ ok: true, value: 'fraud' });
    expect(mapEnum('fr', reasons)).toMatchObject({ ok: false, code: 'enum_unmapped' });
  });

  it('ignores case when asked', () => {
    expect(mapEnum('pnr', reasons, { caseSensitive: false })).toEqual({ ok: true, value: 'product_not_received' });
    expect(mapEnum('x', { A: 1, a: 2 }, { caseSensitive: false })).toMatchObject({
      ok: false,
      code: 'options_invalid',
    });
  });

  it('makes an unmapped value a row error listing the expected keys', () => {
    expect(mapEnum('XX', reasons)).toEqual({
      ok: false,
      code: 'enum_unmapped',
      message: 'enum: expected one of "FR", "PNR", got "XX"',
    });
    expect(mapEnum('', reasons)).toMatchObject({ ok: false, code: 'enum_unmapped' });
  });

  it('never matches inherited object keys', () => {
    for (const text of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(mapEnum(text, reasons), text).toMatchObject({ ok: false, code: 'enum_unmapped' });
    }
  });
});

describe('split and splitAll', () => {
  it('splits an expiry 12/28', () => {
    expect(splitAll('12/28', '/')).toEqual({ ok: true, value: ['12', '28'] });
    expect(split('12/28', '/', 0)).toEqual({ ok: true, value: '12' });
    expect(split('12/28', '/', 1)).toEqual({ ok: true, value: '28' });
  });

  it('reports a missing part or a wrong count', () => {
    expect(split('1228', '/', 1)).toEqual({
      ok: false,
      code: 'split_part_missing',
      message: 'split: expected at least 2 parts separated by "/", got "1228"',
    });
    expect(splitAll('12/28/1', '/', { parts: 2 })).toMatchObject({ ok: false, code: 'split_parts_count' });
    expect(splitAll('12/28', '/', { parts: 2 })).toEqual({ ok: true, value: ['12', '28'] });
  });

  it('rejects an empty separator and a bad index', () => {
    expect(splitAll('12/28', '')).toMatchObject({ ok: false, code: 'options_invalid' });
    expect(split('12/28', '/', -1)).toMatchObject({ ok: false, code: 'options_invalid' });
    expect(split('12/28', '/', 0.5)).toMatchObject({ ok: false, code: 'options_invalid' });
  });
});

describe('withDefault and required', () => {
  it('fills blank cells with the default and keeps the rest', () => {
    expect(withDefault('', 'USD')).toEqual({ ok: true, value: 'USD' });
    expect(withDefault('  ', 'USD')).toEqual({ ok: true, value: 'USD' });
    expect(withDefault(undefined, 'USD')).toEqual({ ok: true, value: 'USD' });
    expect(withDefault('EUR', 'USD')).toEqual({ ok: true, value: 'EUR' });
  });

  it('makes a blank required cell a row error', () => {
    expect(required('x')).toEqual({ ok: true, value: 'x' });
    expect(required('')).toMatchObject({ ok: false, code: 'required_missing' });
    expect(required(' \t')).toMatchObject({ ok: false, code: 'required_missing' });
    expect(required(undefined, 'card.last4')).toEqual({
      ok: false,
      code: 'required_missing',
      message: 'card.last4: expected a value, got an empty cell',
    });
  });
});
