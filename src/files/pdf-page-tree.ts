/**
 * A page tree's leaves counted the one way both readings of a PDF walk it (pdf-cross-references.ts
 * on its own objects, pdf-lib-pages.ts on pdf-lib's): with a stack rather than recursion, each
 * node once. ISO 32000-1 §7.7.3: the page tree is a tree. A node reached twice means a cycle or a
 * shared subtree; refusing it keeps the walk linear in the size of the file.
 */
export interface PageTree<Node> {
  /**
   * A node's kids, each checked to be a node, or undefined for a leaf: sloppy writers omit /Type,
   * so a node is a leaf when its /Type says Page or it has no /Kids to descend.
   */
  kidsOf(node: Node): readonly Node[] | undefined;
  /** The error that refuses the file, in the reading's own kind. */
  refusal(reason: string): Error;
}

export function countPageLeaves<Node>(root: Node, tree: PageTree<Node>): number {
  const seen = new Set<Node>();
  const pending: Node[] = [root];
  let pageCount = 0;
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (seen.has(node)) throw tree.refusal('a page tree that reaches the same node twice');
    seen.add(node);
    const kids = tree.kidsOf(node);
    if (kids === undefined) pageCount++;
    else for (const kid of kids) pending.push(kid);
  }
  return pageCount;
}
