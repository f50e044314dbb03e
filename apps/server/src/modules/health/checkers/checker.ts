import type { CollectedArtifact } from '../exec-artifacts';
import type pg from 'pg';
import type { ResolvedConnection } from '../../connections';
import type { LastResult } from '../last-result';

export interface CheckOutcome {
  pass: boolean;
  message: string;
  error?: string | null;
  details?: Record<string, unknown>;
  /** The checker's own measure (e.g. the request alone); otherwise the wall time of the whole run. */
  durationMs?: number;
  /**
   * The result variables canary-checker gives this check type's expressions (`results`, or `code`, `headers`, `json`…
   * for http): what `test`, `display` and `transform` read. Never stored as such.
   */
  data?: Record<string, unknown>;
  /** Files an exec check kept (`artifacts`), secrets not yet scrubbed: the scheduler scrubs and stores them. */
  artifacts?: CollectedArtifact[];
}

export interface CheckerContext {
  pool: pg.Pool;
  timeoutMs: number;
  signal: AbortSignal;
  resolveConnection(reference: string): Promise<ResolvedConnection>;
  /** The check has a `test` expression: canary-checker then lets the expression judge what the checker would refuse. */
  hasTestExpression?: boolean;
  /** Who the run is for (`canary`, `check`), as templates see them: an http check's templateBody. */
  identity?: { canary: Record<string, unknown>; check: Record<string, unknown> };
  /** The check's previous run, for templates that read `last_result` (loaded only when the spec mentions it). */
  lastResult?: LastResult;
}

export function failed(message: string, details?: Record<string, unknown>): CheckOutcome {
  return { pass: false, message, error: message, ...(details === undefined ? {} : { details }) };
}

/** Adds a latency threshold to an otherwise passing outcome. */
export function withThreshold(outcome: CheckOutcome, durationMs: number, thresholdMillis: number | undefined): CheckOutcome {
  if (!outcome.pass || thresholdMillis === undefined || thresholdMillis === 0 || durationMs <= thresholdMillis) return outcome;
  const error = `Took ${durationMs}ms, above the threshold of ${thresholdMillis}ms`;
  return { ...outcome, pass: false, error, message: `${outcome.message}; ${error}` };
}

/** `connection:` in a check is either a connection string (has a scheme) or a reference to a stored connection. */
export function isInlineUrl(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) && !value.startsWith('connection://');
}
