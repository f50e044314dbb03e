import { hostname } from 'node:os';
import type pg from 'pg';
import { NO_SESSION_ID, type Principal } from '../../platform/principal';
import { AppError } from '../../platform/errors';
import { leaseOwner, PollLoop } from '../../platform/poll-loop';
import { applyResources, type ApplyDeps } from './apply-service';
import { allowedFolder, GITOPS_FOLDER_PROPERTY, GitopsFolderError, readGitopsFolder } from './gitops-folder';

const JOB = 'gitops';
const RUN_EVERY_MS = 300_000;
const LEASE_MS = 600_000;

/**
 * The folder is reconciled as the server itself, with an administrator's rights: only an administrator may name it
 * (security.* property) and only inside a root the operator allowed at start-up. No person is set, so the database's
 * guards treat its writes as the server's own, as they do the canary routes'.
 */
const GITOPS_PRINCIPAL: Principal = { personId: '', sessionId: NO_SESSION_ID, name: 'GitOps', email: null, roles: ['admin'], via: 'session' };

export interface GitopsOutcome {
  status: 'SUCCESS' | 'FAILED';
  source: string;
  counts: Record<string, number>;
  errors: string[];
}

export interface GitopsSchedulerOptions extends ApplyDeps {
  roots: readonly string[];
  pollMs?: number;
  onError?: (error: unknown) => void;
}

/** Every document of the folder applied with prune under source gitops:<folder>, the outcome recorded in Job History. */
export async function reconcileGitopsFolder(deps: ApplyDeps, roots: readonly string[], folder: string): Promise<GitopsOutcome> {
  const source = `gitops:${folder}`;
  const started = new Date();
  let outcome: GitopsOutcome;
  try {
    const files = readGitopsFolder(allowedFolder(folder, roots));
    const report = await applyResources(deps, { files, source, dryRun: false, prune: true, principal: GITOPS_PRINCIPAL });
    const counts: Record<string, number> = {};
    for (const document of report.documents) counts[document.action] = (counts[document.action] ?? 0) + 1;
    outcome = { status: 'SUCCESS', source, counts, errors: [] };
  } catch (error) {
    if (!(error instanceof AppError) && !(error instanceof GitopsFolderError)) throw error;
    const where = error instanceof AppError && error.details !== null ? ` [${error.details}]` : '';
    const code = error instanceof AppError ? `${error.code} ` : '';
    outcome = { status: 'FAILED', source, counts: {}, errors: [`${code}${error.message}${where}`] };
  }
  await recordRun(deps.db.pool, started, outcome);
  return outcome;
}

async function recordRun(pool: pg.Pool, started: Date, outcome: GitopsOutcome): Promise<void> {
  const ended = new Date();
  const written = Object.entries(outcome.counts).reduce((sum, [action, count]) => (action === 'unchanged' ? sum : sum + count), 0);
  await pool.query(
    `insert into job_history (name, resource_type, status, success_count, error_count, duration_millis, hostname, time_start, time_end, details)
     values ('GitopsReconcile', 'gitops', $1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      outcome.status,
      written,
      outcome.errors.length,
      ended.getTime() - started.getTime(),
      hostname(),
      started.toISOString(),
      ended.toISOString(),
      JSON.stringify({ source: outcome.source, summary: outcome.counts, errors: outcome.errors }),
    ],
  );
}

/**
 * Reconciles the folder every five minutes in one worker of many, leased through its maintenance_jobs row as the
 * retention cleanup is; polls often so a newly named folder is applied within seconds.
 */
export class GitopsScheduler {
  private readonly owner = leaseOwner();
  private readonly loop: PollLoop;

  constructor(private readonly options: GitopsSchedulerOptions) {
    this.loop = new PollLoop({ pass: async () => void (await this.pass()), pollMs: options.pollMs ?? 5_000, onError: options.onError });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Reconciles when a folder is named, the run is due and this worker got the lease; null when it did not run. */
  async pass(): Promise<GitopsOutcome | null> {
    const { pool } = this.options.db;
    const named = await pool.query<{ value: string }>('select value from properties where name = $1', [GITOPS_FOLDER_PROPERTY]);
    const folder = named.rows[0]?.value.trim() ?? '';
    if (folder === '') return null;
    const claimed = await pool.query(
      `update maintenance_jobs set lease_owner = $1, lease_expires_at = clock_timestamp() + make_interval(secs => $2::double precision / 1000)
        where name = $3 and next_runtime <= clock_timestamp()
          and (lease_expires_at is null or lease_expires_at < clock_timestamp())
       returning name`,
      [this.owner, LEASE_MS, JOB],
    );
    if (claimed.rowCount === 0) return null;
    try {
      return await reconcileGitopsFolder(this.options, this.options.roots, folder);
    } finally {
      await pool.query(
        `update maintenance_jobs set next_runtime = clock_timestamp() + make_interval(secs => $2::double precision / 1000),
                lease_owner = null, lease_expires_at = null
          where name = $3 and lease_owner = $1`,
        [this.owner, RUN_EVERY_MS, JOB],
      );
    }
  }
}
