/**
 * How much reading a PDF may cost before it is refused as too complex (`pdf_too_complex`). The
 * service states no such limits; these are ours, to keep a hostile file (a decompression bomb, a
 * structure built to exhaust the parser) from taking the process's memory or time. Each is far
 * above what real documents of at most 5 pages need: the numbers and how they were measured are
 * in docs/security.md.
 */

/**
 * Bytes that the object streams and cross-reference streams of one file may decode to, in all,
 * counting the output of every filter of a chain (a stream deflated twice counts both stages).
 * Real files measured: 44 KB to 75 KB in all (pdfTeX manuals of dozens of pages; pdf-lib, 5
 * pages with 200 form fields). These are the only streams parsing decodes: page contents and
 * images are never inflated to count pages.
 */
export const maxPdfInflatedBytes = 8_000_000;

/**
 * Objects one file may declare: in its object streams (their /N, summed), and in its
 * cross-reference streams (their /Index or /Size, summed), each; and indirect objects parsed in
 * all. Real files: 381 to 611 objects. Each costs pdf-lib a few hundred bytes of heap, and a
 * cross-reference stream's count costs that even when its data is a few bytes long.
 */
export const maxPdfObjects = 100_000;

/** Filters one stream may chain: real files use one (FlateDecode), rarely two. */
export const maxPdfFilters = 4;

/**
 * The worker thread that parses PDFs (pdf-page-pool.ts) is stopped and the file refused when its
 * heap outgrows this: the backstop for what the counts above do not foresee (a 4.4 MB file of
 * nothing but `<<>>` takes pdf-lib 275 MB of heap, no compression needed). Real structure costs
 * pdf-lib about 19 bytes of heap per byte: a 5-page form of 5,000 fields (10,010 objects, 1.7 MB
 * of object streams) took 33 MB. With 96 MB such a refusal peaks at 183 MB for the process
 * (128 MB: 339 MB, over the 300 MB a bomb may cost).
 */
export const pdfWorkerHeapMb = 96;

/** The worker is stopped and the file refused after this long on one file. */
export const pdfParseTimeLimitMs = 10_000;
