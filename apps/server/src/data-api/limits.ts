/** The data API's hard limits (documented in docs/query-grammar.md). */
export const LIMITS = {
  /** Longest accepted request URI, in bytes. */
  maxUrlBytes: 8192,
  /** Deepest chain of embedded resources, counting the top level as 0. */
  maxEmbedDepth: 8,
  /** Most items in an `in.(…)` list or an `any`/`all` list. */
  maxListItems: 1000,
  /** Rows a read returns at most: the default page when no limit is given, and the cap for larger limits. */
  maxRows: 1000,
  /** Deepest nesting of `and(…)`/`or(…)` groups. */
  maxLogicDepth: 16,
  /** Per-request statement timeout for writes and function calls, in milliseconds. */
  statementTimeoutMs: 10000,
} as const;
