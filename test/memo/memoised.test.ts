import { describe, expect, it } from 'vitest';
import { memoised } from '../../src/memo/memoised.js';

describe('memoised', () => {
  it('works an answer out once per argument and gives the kept one after', () => {
    const asked: string[] = [];
    const lengthOf = memoised(10, (text: string) => {
      asked.push(text);
      return text.length;
    });
    expect([lengthOf('yyyy'), lengthOf('MM'), lengthOf('yyyy'), lengthOf('MM')]).toEqual([4, 2, 4, 2]);
    expect(asked).toEqual(['yyyy', 'MM']);
  });

  it('keeps an answer that is undefined as it keeps any other', () => {
    let calls = 0;
    const nothing = memoised(10, (_text: string): number | undefined => {
      calls++;
      return undefined;
    });
    expect([nothing('a'), nothing('a'), nothing('a')]).toEqual([undefined, undefined, undefined]);
    expect(calls).toBe(1);
  });

  it('past its limit works each new answer out every time, the kept ones still kept', () => {
    const asked: number[] = [];
    const doubled = memoised(2, (value: number) => {
      asked.push(value);
      return value * 2;
    });
    for (const value of [1, 2, 3, 3, 1, 2, 3]) doubled(value);
    expect(asked).toEqual([1, 2, 3, 3, 3]);
    expect(doubled(3)).toBe(6);
  });
});
