import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { maskCells } from '../../src/mapping/card-number-columns.js';
import { ReviewStore } from '../../src/review/store.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/**
 * Outside the import's door, cells are masked as the import masks them: every column but the
 * mapping's not_card_numbers, whose numbers are known not to be card numbers (docs/mappings.md).
 */

const pan = '4970101000000012';
const cells = { order_no: pan, note: `carte ${pan}`, masked: '497010******0012' };

it('maskCells masks every cell but the not_card_numbers columns, and a masked cell stays as it is', () => {
  expect(maskCells(cells, { not_card_numbers: ['order_no'] })).toEqual({
    order_no: pan,
    note: 'carte 497010******0012',
    masked: '497010******0012',
  });
  expect(maskCells(cells, {})).toMatchObject({ order_no: '497010******0012' });
});

it("the review store keeps a reviewer's edit masked but in the mapping's not_card_numbers columns", async () => {
  const folder = await temporaryFolder('kept-columns-');
  const store = new ReviewStore(join(folder, 'job.review.sqlite'), { not_card_numbers: ['order_no'] });
  onTestFinished(() => {
    store.close();
  });
  store.save(3, cells);
  expect(store.edits().get(3)).toEqual({ order_no: pan, note: 'carte 497010******0012', masked: '497010******0012' });
  expect(store.masked({ note: pan })).toEqual({ note: '497010******0012' });
});
