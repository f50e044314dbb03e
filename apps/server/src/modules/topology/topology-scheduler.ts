import type pg from 'pg';
import { LeaseScheduler, type LeaseSchedulerSettings, type LeaseTables } from '../../platform/lease-scheduler';
import { nextRuntime, parseSchedule } from '../health';
import { runTopology, type TopologyRunOutcome } from './run-topology';
import type { TopologyRow } from './types';

/** A topology follows the catalog and checks it selects; every five minutes keeps cards current at little cost. */
export const DEFAULT_TOPOLOGY_SCHEDULE = '@every 5m';
/** Builds at once per process: each is a few bounded queries and one transaction, and PGlite has one backend. */
export const MAX_TOPOLOGY_RUNS_IN_FLIGHT = 4;

export interface TopologySchedulerOptions extends LeaseSchedulerSettings<TopologyRunOutcome> {
  pool: pg.Pool;
  /** Opens the stored connections a spec's check lookups name. */
  secretKey?: Buffer;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `schedule` of a stored spec, which is either the spec alone or the whole resource with the spec under `spec`. */
function specSchedule(spec: unknown): string | null {
  if (!isRecord(spec)) return null;
  const inner = isRecord(spec.spec) && ('kind' in spec || 'apiVersion' in spec || 'metadata' in spec) ? spec.spec : spec;
  return typeof inner.schedule === 'string' && inner.schedule.trim() !== '' ? inner.schedule : null;
}

/** The schedule a topology runs on: its column, then its spec's own, then every five minutes. */
export function effectiveTopologySchedule(column: string | null, spec: unknown): string {
  if (column !== null && column.trim() !== '') return column;
  return specSchedule(spec) ?? DEFAULT_TOPOLOGY_SCHEDULE;
}

function nextFor(topology: TopologyRow, after: Date): Date {
  try {
    return nextRuntime(parseSchedule(effectiveTopologySchedule(topology.schedule, topology.spec)), after);
  } catch {
    return nextRuntime(parseSchedule(DEFAULT_TOPOLOGY_SCHEDULE), after);
  }
}

/**
 * Makes topologies_schedule hold one row per live topology this server builds (not those of an agent, which builds
 * its own), in one statement: a new or edited topology is due at once, one deleted or handed to an agent loses its
 * row. Unchanged rows are not written. Returns how many rows it added or made due.
 */
export async function syncTopologySchedule(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ due: number }>(
    `with live as (
       select t.id, t.updated_at from topologies t where t.deleted_at is null and t.agent_id is null
     ), removed as (
       delete from topologies_schedule s where not exists (select 1 from live where live.id = s.topology_id)
       returning 1
     ), due as (
       insert into topologies_schedule as s (topology_id, topology_updated_at, next_runtime)
       select live.id, live.updated_at, now() from live
       on conflict (topology_id) do update set topology_updated_at = excluded.topology_updated_at, next_runtime = now()
        where s.topology_updated_at is distinct from excluded.topology_updated_at
       returning 1
     )
     select (select count(*) from due)::integer as due, (select count(*) from removed)::integer as removed`,
  );
  return result.rows[0]?.due ?? 0;
}

/**
 * Makes a live topology of this server due now (Run Now); false when there is no such topology. A run under way keeps
 * going and the topology is built again as it ends.
 */
export async function requestTopologyRun(pool: pg.Pool, topologyId: string): Promise<boolean> {
  const result = await pool.query(
    `insert into topologies_schedule as s (topology_id, topology_updated_at, next_runtime, run_requested_at)
     select t.id, t.updated_at, now(), now() from topologies t where t.id = $1 and t.deleted_at is null and t.agent_id is null
     on conflict (topology_id) do update set next_runtime = now(), run_requested_at = now()`,
    [topologyId],
  );
  return (result.rowCount ?? 0) > 0;
}

const TOPOLOGY_TABLES: LeaseTables = {
  schedule: 'topologies_schedule',
  key: 'topology_id',
  subject: 'topologies',
  columns: ['id', 'name', 'namespace', 'icon', 'labels', 'spec', 'schedule', 'agent_id'],
  nullColumns: ['deleted_at', 'agent_id'],
  noun: 'topology',
};

/**
 * Builds due topologies on leases (see LeaseScheduler). A build is not aborted when its lease is lost: it stores its
 * tree only while it still holds the lease.
 */
export class TopologyScheduler extends LeaseScheduler<TopologyRow, TopologyRunOutcome> {
  constructor({ pool, secretKey, ...settings }: TopologySchedulerOptions) {
    super({
      ...settings,
      pool,
      tables: TOPOLOGY_TABLES,
      run: (topology, lease) => runTopology(pool, topology, { leaseOwner: lease.owner, signal: lease.signal, ...(secretKey === undefined ? {} : { secretKey }) }),
      nextRuntime: (topology) => nextFor(topology, new Date()),
      defaultMaxInFlight: MAX_TOPOLOGY_RUNS_IN_FLIGHT,
    });
  }
}
