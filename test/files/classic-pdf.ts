/**
 * Classic PDFs written by hand, with a cross-reference table whose offsets are computed here, so
 * a test can give the page tree any shape and the syntax any corner (comments, escaped names,
 * strings holding delimiters) and still have a file whose every offset is right.
 */

/**
 * Object bodies by object number (1, 2, …), the catalog first; each goes between `N 0 obj` and
 * `endobj`. A `prefix` is put before the file afterwards, as a mail gateway adds junk: every offset
 * is then off by its length.
 */
export function classicPdf(bodies: readonly string[], options: { prefix?: string } = {}): Buffer {
  const header = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  let text = header;
  const offsets: number[] = [];
  bodies.forEach((body, index) => {
    offsets.push(Buffer.byteLength(text, 'latin1'));
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefOffset = Buffer.byteLength(text, 'latin1');
  text += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f\r\n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n\r\n`;
  text += `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from((options.prefix ?? '') + text, 'latin1');
}

/**
 * `original` with one incremental update appended (ISO 32000-1 §7.5.6): the objects in
 * `bodies` (new numbers or new versions of old ones), a cross-reference section for them and a
 * trailer whose /Prev names the original's section.
 */
export function appendRevision(original: Buffer, bodies: ReadonlyMap<number, string>, rootNumber: number): Buffer {
  const previous = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(original.toString('latin1'))?.[1];
  if (previous === undefined)
    throw new Error('appendRevision: expected the original to end with startxref and %%EOF, got something else');
  let text = '';
  const offsets = new Map<number, number>();
  for (const [objectNumber, body] of bodies) {
    offsets.set(objectNumber, original.length + Buffer.byteLength(text, 'latin1'));
    text += `${objectNumber} 0 obj\n${body}\nendobj\n`;
  }
  const xrefOffset = original.length + Buffer.byteLength(text, 'latin1');
  text += 'xref\n';
  for (const [objectNumber, offset] of offsets)
    text += `${objectNumber} 1\n${String(offset).padStart(10, '0')} 00000 n\r\n`;
  const size = Math.max(...offsets.keys()) + 1;
  text += `trailer\n<< /Size ${size} /Root ${rootNumber} 0 R /Prev ${previous} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.concat([original, Buffer.from(text, 'latin1')]);
}
