import { hostname } from 'node:os';
import type pg from 'pg';
import { NO_SESSION_ID, type Principal } from '../../platform/principal';
import { AppError } from '../../platform/errors';
import { MaintenanceJob } from '../../platform/maintenance-job';
import { applyResources, type ApplyDeps } from './apply-service';
import { allowedFolder, GITOPS_FOLDER_PROPERTY, GitopsFolderError, readGitopsFolder } from './gitops-folder';

const RUN_EVERY_MS = 300_000;

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

/** The folder an administrator named, or null while none is: the job is then left unclaimed, due as it was. */
async function namedFolder(pool: pg.Pool): Promise<string | null> {
  const named = await pool.query<{ value: string }>('select value from properties where name = $1', [GITOPS_FOLDER_PROPERTY]);
  const folder = named.rows[0]?.value.trim() ?? '';
  return folder === '' ? null : folder;
}

/**
 * Reconciles the folder every five minutes in one worker of many, under its maintenance_jobs lease; polls often so a
 * newly named folder is applied within seconds.
 */
export class GitopsScheduler extends MaintenanceJob<GitopsOutcome, string> {
  constructor(options: GitopsSchedulerOptions) {
    super({
      pool: options.db.pool,
      name: 'gitops',
      everyMs: RUN_EVERY_MS,
      pollMs: options.pollMs ?? 5_000,
      onError: options.onError,
      prepare: () => namedFolder(options.db.pool),
      run: (folder) => reconcileGitopsFolder(options, options.roots, folder),
    });
  }
}
