/** `column` (a timestamptz) as the ISO-8601 UTC text JavaScript's toISOString writes, for JSON built by PostgreSQL. */
export function isoTimeSql(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
