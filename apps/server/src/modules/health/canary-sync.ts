import type pg from 'pg';
import { checksFromCanarySpec, CanarySpecError } from './canary-spec';

export interface SyncResult {
  upserted: number;
  removed: number;
  /** Set when the stored spec no longer validates; its checks are then left as they were. */
  error: string | null;
}

interface CanaryRow {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: unknown;
  agent_id: string | null;
  created_by: string | null;
  deleted_at: string | null;
  updated_at: string;
}

/**
 * Makes the canary's checks match its spec in one statement: new checks are inserted and due at once, changed ones
 * updated (and due at once when their spec changed, or always with `reschedule`), removed ones soft-deleted with the
 * checks their transforms made (kept while their parent stays). A deleted canary soft-deletes all its checks. Unchanged rows are not touched, so repeated passes cost no writes.
 * A canary switched to `resultMode: junit` has one row, its report, so its per-check rows go as removed checks do, and
 * back again when it is switched off; a rename of a junit canary renames its report by replacing it, as a renamed check.
 */
export async function syncCanaryChecks(db: pg.Pool | pg.PoolClient, canaryId: string, options: { reschedule: boolean }): Promise<SyncResult> {
  const found = await db.query<CanaryRow>('select id, name, namespace, labels, spec, agent_id, created_by, deleted_at, updated_at from canaries where id = $1', [canaryId]);
  const canary = found.rows[0];
  if (canary === undefined || canary.deleted_at !== null) {
    const removed = await db.query('update checks set deleted_at = now() where canary_id = $1 and deleted_at is null', [canaryId]);
    return { upserted: 0, removed: removed.rowCount ?? 0, error: null };
  }
  let definitions;
  try {
    definitions = checksFromCanarySpec(canary.spec, { canaryName: canary.name });
  } catch (error) {
    if (error instanceof CanarySpecError) return { upserted: 0, removed: 0, error: error.message };
    throw error;
  }
  const rows = definitions.map((d) => ({ ...d, labels: { ...canary.labels, ...d.labels } }));
  const result = await db.query<{ upserted: number; removed: number }>(
    `with defs as (
       select * from jsonb_to_recordset($2::jsonb)
         as d(type text, name text, description text, icon text, endpoint text, owner text, severity text, labels jsonb, spec jsonb)
     ), upserted as (
       insert into checks as k (canary_id, agent_id, type, name, namespace, description, icon, endpoint, owner, severity, labels, spec,
                                next_runtime, created_by)
       select $1, $3, d.type, d.name, $4, d.description, d.icon, d.endpoint, d.owner, d.severity, d.labels, d.spec, now(), $5
         from defs d
       on conflict (canary_id, type, name) where deleted_at is null do update set
         agent_id = excluded.agent_id, namespace = excluded.namespace, description = excluded.description, icon = excluded.icon,
         endpoint = excluded.endpoint, owner = excluded.owner, severity = excluded.severity, labels = excluded.labels,
         spec = excluded.spec,
         -- A reschedule runs the checks once per canary edit: a check that already ran since the edit (another worker's
         -- reconciler, or the node that saved it, synced first) keeps its schedule instead of running again at once.
         next_runtime = case when ($6 and (k.last_runtime is null or k.last_runtime < $7::timestamptz)) or k.spec is distinct from excluded.spec
                             then now() else k.next_runtime end
       where $6 or (k.agent_id, k.namespace, k.description, k.icon, k.endpoint, k.owner, k.severity, k.labels, k.spec)
                   is distinct from
                   (excluded.agent_id, excluded.namespace, excluded.description, excluded.icon, excluded.endpoint, excluded.owner,
                    excluded.severity, excluded.labels, excluded.spec)
       returning k.id
     ), removed as (
       -- A check a transform made is owned by its parent's runs, not by the spec: it stays (same id, same history)
       -- while its parent is still in the spec, and goes with it.
       update checks k set deleted_at = now()
        where k.canary_id = $1 and k.deleted_at is null
          and case when k.spec->>'transformedFrom' is null
                   then not exists (select 1 from defs d where d.type = k.type and d.name = k.name)
                   else not exists (select 1 from checks p join defs d on d.type = p.type and d.name = p.name
                                     where p.id::text = k.spec->>'transformedFrom' and p.canary_id = $1 and p.deleted_at is null)
              end
       returning k.id
     )
     select (select count(*) from upserted)::integer as upserted, (select count(*) from removed)::integer as removed`,
    [canaryId, JSON.stringify(rows), canary.agent_id, canary.namespace, canary.created_by, options.reschedule, canary.updated_at],
  );
  const counts = result.rows[0] ?? { upserted: 0, removed: 0 };
  return { upserted: counts.upserted, removed: counts.removed, error: null };
}

/**
 * Follows changes to the canaries table whoever makes them (this API, the data API, another process): every pass
 * syncs canaries whose updated_at moved since it last saw them. The first pass syncs everything without forcing
 * runs, so a restart does not fire every check at once.
 */
export class CanaryReconciler {
  private readonly seen = new Map<string, string>();
  private watermark = '-infinity';
  private first = true;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onError: (canaryId: string, message: string) => void,
  ) {}

  /** Returns the ids of canaries synced in this pass. */
  async pass(): Promise<string[]> {
    // Transactions commit after their now(): look back a minute so a late commit is not skipped; `seen` dedupes.
    const changed = await this.pool.query<{ id: string; updated_at: string }>(
      `select id, updated_at from canaries where updated_at > $1::timestamptz - interval '1 minute' order by updated_at`,
      [this.watermark],
    );
    const synced: string[] = [];
    for (const row of changed.rows) {
      if (this.seen.get(row.id) === row.updated_at) continue;
      const result = await syncCanaryChecks(this.pool, row.id, { reschedule: !this.first });
      if (result.error !== null) this.onError(row.id, result.error);
      this.seen.set(row.id, row.updated_at);
      synced.push(row.id);
      if (row.updated_at > this.watermark || this.watermark === '-infinity') this.watermark = row.updated_at;
    }
    this.first = false;
    return synced;
  }

  /** A canary this process just saved and synced itself. */
  markSynced(canaryId: string, updatedAt: string): void {
    this.seen.set(canaryId, updatedAt);
  }
}
