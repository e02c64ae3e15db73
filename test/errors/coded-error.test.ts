import { describe, expect, it } from 'vitest';
import { CodedError, codeOf } from '../../src/errors/coded-error.js';
import { UsageError } from '../../src/cli/exit-codes.js';
import { ClaimsConfigError } from '../../src/api/errors.js';

describe('codeOf', () => {
  it('reads the code of a system error, as Node throws it', () => {
    const error = Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });
    expect(codeOf(error)).toBe('ENOENT');
  });

  it('is undefined for a thrown value that is not an error, or a code that is not a string', () => {
    expect(codeOf('ENOENT')).toBeUndefined();
    expect(codeOf({ code: 'ENOENT' })).toBeUndefined();
    expect(codeOf(undefined)).toBeUndefined();
    expect(codeOf(new Error('no code'))).toBeUndefined();
    expect(codeOf(Object.assign(new Error('numbered'), { code: 7 }))).toBeUndefined();
  });

  it('reads our own errors, which keep their names and codes', () => {
    const usage = new UsageError('--out: expected a file');
    expect(usage).toBeInstanceOf(CodedError);
    expect(usage.name).toBe('UsageError');
    expect(codeOf(usage)).toBe('USAGE');
    expect(codeOf(new ClaimsConfigError('base URL'))).toBe('CLAIMS_CONFIG');
  });
});
