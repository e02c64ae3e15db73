import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { importMetaFields } from '../../src/job-files/import/meta.js';
import { migrateMetaFields } from '../../src/job-files/migrate/meta.js';
import { trackMetaFields } from '../../src/job-files/track/meta.js';
import { withdrawMetaFields } from '../../src/job-files/withdraw/meta.js';

/** docs/data.md lists what every journal kind records of its job: every key of every kind's schema, and no other. */

const page = await readFile(new URL('../../docs/data.md', import.meta.url), 'utf8');

/** The table after the marker: its rows' journals and keys. */
function listed(): Map<string, Set<string>> {
  const table = page.split('<!-- journal meta:')[1]?.split('\n\n')[0] ?? '';
  const byKind = new Map<string, Set<string>>();
  for (const line of table.split('\n').filter((row) => row.startsWith('| ') && !row.startsWith('| Journal'))) {
    const [, journals = '', keys = ''] = line.split('|').map((cell) => cell.trim());
    const names = [...keys.matchAll(/`([a-z_]+)`/g)].map((match) => match[1] ?? '');
    const kinds = journals === 'every kind' ? ['import', 'withdraw', 'migrate-v1', 'track'] : journals.split(', ');
    for (const kind of kinds) for (const name of names) byKind.set(kind, (byKind.get(kind) ?? new Set()).add(name));
  }
  return byKind;
}

describe('docs/data.md: what a journal records of its job', () => {
  it('lists every key of every journal kind, and only those', () => {
    const documented = listed();
    const schemas = {
      import: importMetaFields,
      withdraw: withdrawMetaFields,
      'migrate-v1': migrateMetaFields,
      track: trackMetaFields,
    };
    for (const [kind, fields] of Object.entries(schemas))
      expect([...(documented.get(kind) ?? [])].sort(), kind).toEqual(Object.keys(fields).sort());
  });
});
