import type pg from 'pg';

/**
 * canary-checker's `last_result` (api/context/functions.go): the check's previous run as templates and expressions
 * read it, `results` being what that run stored as its details (a transform's `detail` included). Stateful checks use
 * it to ask only for what is new since (`since: {{ last_result.results.max }}`). `results` is the previous run's
 * result variables (`rows` and `count` of a query…) or, when a transform wrote a `detail`, that detail.
 */
export type LastResult = Readonly<Record<string, unknown>>;

/** Before any run, and for a check run outside the scheduler. */
export const NO_LAST_RESULT: LastResult = { status: '', invalid: false, createdAt: null, duration: 0, message: '', error: '', results: {} };

/** Whether a stored spec reads `last_result` anywhere, so the previous run is loaded only for the checks that need it. */
export function readsLastResult(spec: unknown): boolean {
  return JSON.stringify(spec ?? null).includes('last_result');
}

/** The check's latest recorded run, in canary-checker's shape. */
export async function loadLastResult(pool: pg.Pool, checkId: string): Promise<LastResult> {
  const row = await pool.query<{ status: boolean; duration: number | null; message: string | null; error: string | null; details: unknown; created_at: string }>(
    `select status, duration, message, error, details, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
       from check_statuses where check_id = $1 order by time desc limit 1`,
    [checkId],
  );
  const last = row.rows[0];
  if (last === undefined) return NO_LAST_RESULT;
  const details = typeof last.details === 'object' && last.details !== null && !Array.isArray(last.details) ? (last.details as Record<string, unknown>) : {};
  // A run that read last_result kept its results beside its details (run-check.ts); a transform's detail is read as it is.
  const kept = details.results;
  const results = typeof kept === 'object' && kept !== null && !Array.isArray(kept) ? kept : details;
  return { status: last.status, invalid: false, createdAt: last.created_at, duration: last.duration ?? 0, message: last.message ?? '', error: last.error ?? '', results };
}
