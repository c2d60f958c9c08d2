/**
 * Reads a long log a page at a time, so it is never held whole: each page
 * starts after the last row of the one before (keyset paging on an increasing
 * key, such as a signal's id or an event's seq), and the log ends with the
 * first page shorter than `pageSize`.
 */
export async function* pagedRead<Row>(
  readPage: (after: number | undefined, pageSize: number) => Promise<Row[]>,
  keyOf: (row: Row) => number,
  after: number | undefined,
  pageSize: number,
): AsyncGenerator<Row[]> {
  for (;;) {
    const rows = await readPage(after, pageSize);
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    after = keyOf(rows.at(-1)!);
  }
}
