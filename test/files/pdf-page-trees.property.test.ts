import fc from 'fast-check';
import { expect, it } from 'vitest';
import { pageCountFromCrossReferences } from '../../src/files/pdf-cross-references.js';
import { countPdfPages } from '../../src/files/pdf-pages.js';
import { classicPdf } from './classic-pdf.js';

/**
 * The quick reading (pages counted without building pdf-lib's document model) against pdf-lib's,
 * on page trees of any shape: intermediate nodes with no kids or many, leaves with and without
 * /Type, and syntax noise around every value. The same objects behind leading junk spoil every
 * offset, so countPdfPages must ask pdf-lib for them.
 */

type TreeNode = { leaf: true; typed: boolean; noise: string } | { leaf: false; kids: TreeNode[]; noise: string };

const noise = fc.constantFrom(
  '',
  '/Rotate 90',
  '/Title (a (b) \\) c >>)',
  '% comment >>\n',
  '/N#61me /V#61lue',
  '/A [1 2.5 -3 [<00ff> true null]]',
  '/D << /X 1 0 R >>',
);
const tree = fc.letrec<{ node: TreeNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ leaf: fc.constant(true as const), typed: fc.boolean(), noise }),
    fc.record({ leaf: fc.constant(false as const), kids: fc.array(tie('node'), { maxLength: 4 }), noise }),
  ),
})).node;

/** Object 1 the catalog, object 2 the root, the rest numbered depth first. */
function objectsOf(root: TreeNode): string[] {
  const bodies: string[] = ['<< /Type /Catalog /Pages 2 0 R >>'];
  const place = (node: TreeNode, parent: number | undefined): number => {
    const objectNumber = bodies.length + 1;
    bodies.push('');
    const parentEntry = parent === undefined ? '' : `/Parent ${parent} 0 R`;
    if (node.leaf) {
      bodies[objectNumber - 1] = `<< ${node.typed ? '/Type /Page' : ''} ${parentEntry} ${node.noise}\n>>`;
    } else {
      const kids = node.kids.map((kid) => `${place(kid, objectNumber)} 0 R`);
      bodies[objectNumber - 1] = `<< /Type /Pages ${node.noise}\n /Kids [${kids.join(' ')}] ${parentEntry} >>`;
    }
    return objectNumber;
  };
  place(root, undefined);
  return bodies;
}

it('counts every page tree as pdf-lib does, whole or in pieces', async () => {
  await fc.assert(
    fc.asyncProperty(tree, fc.integer({ min: 1, max: 64 }), async (root, pieceBytes) => {
      const bodies = objectsOf(root);
      const bytes = classicPdf(bodies);
      const pieces = Array.from({ length: Math.ceil(bytes.length / pieceBytes) }, (_, index) =>
        bytes.subarray(index * pieceBytes, (index + 1) * pieceBytes),
      );
      const quick = pageCountFromCrossReferences(pieces);
      const behindJunk = classicPdf(bodies, { prefix: 'junk\r\n' });
      expect(pageCountFromCrossReferences([behindJunk])).toBeUndefined();
      expect(quick).toBe(await countPdfPages(behindJunk));
    }),
    { numRuns: 200 },
  );
});
