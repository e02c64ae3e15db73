import { describe, expect, it } from 'vitest';
import { BytePieces } from '../../src/files/byte-pieces.js';

/** Content in pieces, read at any offset as the one content they make. */

const pieces = (...texts: string[]) => texts.map((text) => Buffer.from(text, 'latin1'));

describe('BytePieces', () => {
  it.each([
    [['abcdef'], 1, 3, 'bcd'],
    [['ab', 'cd', 'ef'], 1, 4, 'bcde'],
    [['a', '', 'b', 'cdef'], 0, 6, 'abcdef'],
    [['ab', '', 'cd'], 2, 2, 'cd'],
    [['ab', 'c'], 1, 10, 'bc'],
    [['abc'], 3, 2, ''],
    [[], 0, 4, ''],
  ])('reads %j from %i, %i bytes: %j', (texts, start, length, expected) => {
    expect(new BytePieces(pieces(...texts)).window(start, length).toString('latin1')).toBe(expected);
  });

  it('gives a view into the piece, not a copy, when the bytes lie within one', () => {
    const [first, second] = pieces('abcd', 'efgh');
    if (first === undefined || second === undefined) throw new Error('fixture: expected two pieces');
    const content = new BytePieces([first, second]);
    const view = content.window(5, 2);
    second[1] = 0x5a;
    expect(view.toString('latin1')).toBe('Zg');
    expect(content.size).toBe(8);
  });

  it('is whole as its only piece itself, or as one copy of them all', () => {
    const only = Buffer.from('only');
    expect(new BytePieces([only]).whole()).toBe(only);
    expect(Buffer.from(new BytePieces(pieces('a', 'bc', '')).whole()).toString('latin1')).toBe('abc');
  });
});
