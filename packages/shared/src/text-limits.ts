/**
 * How long a text value may be, in characters, wherever it is written (the data API, the REST routes and the forms).
 * A btree index entry must fit in about a third of a page (2,704 bytes): 256 characters of up to four bytes each keep
 * an entry of two such columns under it, so an indexed value never makes a write fail. Names and titles are shown in
 * one line wherever they appear and get the same bound. Other text is bounded well above any real description,
 * comment or template, and well under the 1 MB a tsvector may hold. docs/text-limits.md lists every column's limit.
 */
export const TEXT_LIMITS = {
  /** Columns in a btree index (plain or through an expression), and names, titles and namespaces. */
  short: 256,
  /** Every other text column. */
  long: 100_000,
  /** Elements of a text[] value. */
  arrayItems: 1000,
} as const;
