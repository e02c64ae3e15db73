/**
 * The limits a workbook is read within. A bank's export is a zip of XML parts: a few hundred bytes
 * of deflate can stand for gigabytes of XML (a decompression bomb), so every part the reader reads
 * is bounded as the zip's directory declares it, before anything is inflated, and again as it
 * inflates (a directory can lie). Each number leaves room for the largest workbook a spreadsheet
 * can hold or a bank exports; docs/import.md "Workbook limits" says them for a person.
 */
const mib = 1024 * 1024;

export const workbookLimits = {
  /** Entries in the zip's directory: a workbook has a dozen, a hundred with pictures; more is no workbook. */
  entries: 10_000,
  /**
   * A sheet's XML, inflated: streamed, so memory stays flat; the bound is on time. A 100,000-row
   * results workbook's sheet is 160 MiB, the same export saved by LibreOffice 90 MiB; a sheet of
   * Excel's 1,048,576 rows is about ten times that.
   */
  sheetBytes: 2048 * mib,
  /**
   * The shared-strings table, inflated: exceljs holds it in memory while the sheet is read, at
   * about 3.5 bytes of memory per byte of XML (a 137 MiB table: 489 MiB peak). A 100,000-row export
   * saved by LibreOffice keeps 9.1 MiB of strings; 64 MiB is seven times that, or 20 text columns
   * of 100,000 rows all different. A table at the limit (1.6 million strings) reads at 348 MiB
   * peak for the whole process.
   */
  sharedStringsBytes: 64 * mib,
  /** Strings in the table: that export holds 185,694; 2,000,000 is 20 text columns of 100,000 rows, all different. */
  sharedStrings: 2_000_000,
  /** Every other part read (the workbook, its relationships, its styles): kilobytes in real workbooks. */
  otherPartBytes: 64 * mib,
  /**
   * Inflated bytes per compressed byte, for a part and for all the parts read: Apache POI's
   * `ZipSecureFile` refuses past 100 as a bomb. Real workbooks measure 9 to 20 (a 100,000-row
   * sheet 8.8 or 11, its strings 20), and shapes made to compress well under 30 (a million styled
   * empty rows: 28); repeats a bomb is made of, about 1000.
   */
  ratio: 100,
  /** Parts smaller than this are not held to the ratio: a few kilobytes of empty styled cells deflate far better. */
  ratioGraceBytes: 1 * mib,
  /**
   * One piece of XML between two tags (a cell's text, a tag's attributes, a comment), as stored:
   * like a CSV record (src/csv/read-rows.ts), at most 1 MiB. A cell of Excel's 32,767 characters
   * takes at most 256 KiB however it is escaped (`&#65535;`); the cap stops a 1 GiB cell before
   * the XML parser holds it.
   */
  xmlRunBytes: 1 * mib,
  /**
   * A sheet's row, as stored: 16,384 cells (Excel's last column, XFD) of the short text a dispute
   * carries, tags included, are under 2 MiB; a CSV record is at most 1 MiB.
   */
  rowBytes: 8 * mib,
  /** Cells in a row: Excel's columns, A to XFD. */
  rowCells: 16_384,
  /** One string of the shared-strings table, as stored: one cell's text, as `xmlRunBytes`. */
  sharedStringBytes: 1 * mib,
  /** A cell's text: Excel's own limit, so no real workbook holds more. */
  cellCharacters: 32_767,
} as const;
