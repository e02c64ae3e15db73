import { describe, expect, it } from 'vitest';
import { SandboxCore } from '../../src/sandbox/core.js';
import { openDatabase } from '../../src/sandbox/store/database.js';

describe('generated ids', () => {
  it('are the prefix and 24 hex digits, distinct, in the order they are made (so each is appended to its index)', () => {
    const database = openDatabase(':memory:');
    const core = new SandboxCore({ database, now: () => 0 });
    try {
      const ids = Array.from({ length: 3000 }, () => core.newId('event'));
      for (const id of ids) expect(id).toMatch(/^event_[0-9a-f]{24}$/);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual(ids);
      expect(core.newId('claim')).toMatch(/^claim_[0-9a-f]{24}$/);
    } finally {
      core.close();
      database.close();
    }
  });
});
