/**
 * A function's answers kept by argument, at most `limit` of them: for a lookup asked again and
 * again with few distinct arguments (a mapping's date formats, a sandbox's addresses). Past the
 * limit an answer is worked out each time rather than kept, so memory stays bounded whatever
 * arguments an input brings.
 */
export function memoised<Key, Value>(limit: number, compute: (key: Key) => Value): (key: Key) => Value {
  const answers = new Map<Key, Value>();
  return (key) => {
    const kept = answers.get(key);
    // An answer may itself be undefined ("no such layout"), kept all the same: has() tells.
    if (kept !== undefined || answers.has(key)) return kept as Value;
    const answer = compute(key);
    if (answers.size < limit) answers.set(key, answer);
    return answer;
  };
}
