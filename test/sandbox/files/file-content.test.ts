import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentBytes, contentHead, fileContent } from '../../../src/sandbox/files/file-content.js';

/** An upload's pieces, read as the one content they make. */

const pieces = (...texts: string[]) => fileContent(texts.map((text) => Buffer.from(text)));

describe('file content in pieces', () => {
  it('adds up its size and reads whole as the pieces joined', () => {
    const content = pieces('ab', '', 'cde', 'f');
    expect(content.size).toBe(6);
    expect(contentBytes(content).toString()).toBe('abcdef');
    expect(contentBytes(pieces()).length).toBe(0);
  });

  it('is hashed piece by piece as the pieces come, to the hash of the bytes joined', () => {
    const content = pieces('ab', '', 'cde', 'f');
    expect(content.sha256).toBe(createHash('sha256').update('abcdef').digest('hex'));
    expect(pieces().sha256).toBe(createHash('sha256').digest('hex'));
  });

  it('gives a lone piece itself, without a copy', () => {
    const only = Buffer.from('only');
    expect(contentBytes(fileContent([only]))).toBe(only);
  });

  it.each([
    [['abcdef'], 4, 'abcd'],
    [['ab', 'cd', 'ef'], 3, 'abc'],
    [['a', '', 'b', 'cdef'], 5, 'abcde'],
    [['ab', 'c'], 10, 'abc'],
    [['abc'], 3, 'abc'],
    [[], 4, ''],
  ])('reads the first bytes of %j: %i -> %j', (texts, length, head) => {
    expect(contentHead(pieces(...texts), length).toString()).toBe(head);
  });
});
