import os from 'node:os';
import pg from 'pg';
import { AppError } from '../../platform/errors';
import { runUnsavedCheck } from '../health';
import { buildTopology } from './build-tree';
import { inlineCanariesOf, syncInlineCanaries } from './inline-canaries';
import { parseTopologySpec } from './spec';
import { storeTopology, topologySources, type StoreSummary } from './topology-store';
import type { BuiltTopology, TopologyRow, TopologySources } from './types';

/** The job_history name of every topology run (the Job History filter lists names); resource_name tells them apart. */
export const TOPOLOGY_JOB_NAME = 'Topology';
export const TOPOLOGY_RESOURCE_TYPE = 'topology';
/** job_history rows stay small enough for the list and its details modal whatever a broken spec reports. */
const MAX_STORED_ERRORS = 100;
const MAX_ERROR_LENGTH = 4000;

export type TopologyRunStatus = 'SUCCESS' | 'WARNING' | 'FAILED';

export interface TopologyRunOutcome {
  jobId: string;
  status: TopologyRunStatus;
  /** Null when nothing was stored (the build or the store failed). */
  summary: StoreSummary | null;
  errors: string[];
  durationMs: number;
}

export interface RunTopologyOptions {
  /**
   * The scheduler's lease: the store locks the topology's schedule row and gives up unless this owner still holds
   * it, so a worker whose lease expired mid-build never writes over the one that took the topology over.
   */
  leaseOwner?: string;
  /** Opens the stored connections check lookups name; without it (the demo seed) a spec with check lookups fails. */
  secretKey?: Buffer;
  /** Stops check lookups when the scheduler stops. */
  signal?: AbortSignal;
}

function messageOf(error: unknown): string {
  if (error instanceof AppError) return error.details === null ? error.message : `${error.message}: ${error.details}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The build's sources, remembering the first query that failed: a build that carries on without it would take the
 * items it could not read for items that are gone, and the run would delete their components.
 */
function watchedSources(sources: TopologySources): { sources: TopologySources; failure: () => unknown } {
  let failed: { error: unknown } | null = null;
  const watch = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      failed ??= { error };
      throw error;
    }
  };
  return {
    sources: {
      findConfigs: (selector) => watch(sources.findConfigs(selector)),
      findChecks: (selector) => watch(sources.findChecks(selector)),
      findTagValues: (tag, selector, classes) => watch(sources.findTagValues(tag, selector, classes)),
      // A failed lookup throws out of the build itself (TopologyLookupError), so it needs no watching.
      ...(sources.runLookup === undefined ? {} : { runLookup: sources.runLookup }),
    },
    failure: () => failed?.error,
  };
}

/**
 * The sources with check lookups: each runs as an unsaved check in the topology's namespace (its connections and value
 * references opened for that run only, their secrets scrubbed from the display), answering with the display output.
 */
function withLookups(sources: TopologySources, db: pg.Pool | pg.PoolClient, topology: TopologyRow, options: RunTopologyOptions): TopologySources {
  const { secretKey, signal } = options;
  if (!(db instanceof pg.Pool) || secretKey === undefined) return sources;
  return {
    ...sources,
    runLookup: async (type, spec) => {
      const result = await runUnsavedCheck({ pool: db, secretKey, namespace: topology.namespace, ...(signal === undefined ? {} : { signal }) }, type, spec);
      return result.pass ? { pass: true, output: result.message } : { pass: false, error: result.error ?? result.message };
    },
  };
}

async function startJob(db: pg.Pool | pg.PoolClient, topology: TopologyRow, startedAt: Date): Promise<string> {
  const row = await db.query<{ id: string }>(
    `insert into job_history (name, resource_type, resource_id, status, hostname, time_start, agent_id)
     values ($1, $2, $3, 'RUNNING', $4, $5, $6) returning id`,
    [TOPOLOGY_JOB_NAME, TOPOLOGY_RESOURCE_TYPE, topology.id, os.hostname(), startedAt.toISOString(), topology.agent_id],
  );
  const id = row.rows[0]?.id;
  if (id === undefined) throw new Error('job_history insert returned no id');
  return id;
}

async function holdLease(client: pg.PoolClient, topologyId: string, owner: string | undefined): Promise<void> {
  if (owner === undefined) return;
  const held = await client.query('select 1 from topologies_schedule where topology_id = $1 and lease_owner = $2 for update', [topologyId, owner]);
  if ((held.rowCount ?? 0) === 0) throw new Error('another worker took over this topology before its tree was stored');
}

/**
 * Stores in one transaction: its own on a pool connection, or a savepoint inside the transaction of the client given
 * (the demo seed's), so a failed store leaves that transaction usable. Never holds a transaction while building.
 */
async function store(
  db: pg.Pool | pg.PoolClient,
  topology: TopologyRow,
  built: BuiltTopology,
  errors: string[],
  options: RunTopologyOptions,
): Promise<StoreSummary> {
  if (!(db instanceof pg.Pool)) {
    await db.query('savepoint topology_run');
    try {
      await holdLease(db, topology.id, options.leaseOwner);
      const summary = await storeTopology(db, topology, built, errors);
      await db.query('release savepoint topology_run');
      return summary;
    } catch (error) {
      await db.query('rollback to savepoint topology_run');
      throw error;
    }
  }
  const client = await db.connect();
  try {
    await client.query('begin');
    await holdLease(client, topology.id, options.leaseOwner);
    const summary = await storeTopology(client, topology, built, errors);
    await client.query('commit');
    return summary;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * One run of one topology: build its tree from the stored spec and the catalog and checks it selects, store it, and
 * record it all in one job_history row that reads RUNNING while the run lasts. `db` is the pool, or a client inside a
 * transaction (the demo seed builds inside its own). It never throws for anything a spec does: a spec that no longer
 * parses or a query that fails is the FAILED row, and then nothing stored is touched. Problems the build got past
 * make it WARNING.
 */
export async function runTopology(db: pg.Pool | pg.PoolClient, topology: TopologyRow, options: RunTopologyOptions = {}): Promise<TopologyRunOutcome> {
  const startedAt = new Date();
  const jobId = await startJob(db, topology, startedAt);
  let status: TopologyRunStatus = 'FAILED';
  let summary: StoreSummary | null = null;
  const errors: string[] = [];
  try {
    // The inline canaries first: the build attaches their checks (a spec that does not parse fails the run here).
    await syncInlineCanaries(db, topology, inlineCanariesOf(parseTopologySpec(topology.spec).root));
    const watched = watchedSources(withLookups(topologySources(db, topology.id), db, topology, options));
    const built = await buildTopology(topology, watched.sources);
    const failure = watched.failure();
    if (failure !== undefined) throw failure;
    errors.push(...built.errors);
    summary = await store(db, topology, built, errors, options);
    status = errors.length === 0 ? 'SUCCESS' : 'WARNING';
  } catch (error) {
    status = 'FAILED';
    errors.push(messageOf(error));
  }
  const durationMs = Date.now() - startedAt.getTime();
  const kept = errors.slice(0, MAX_STORED_ERRORS).map((error) => error.slice(0, MAX_ERROR_LENGTH));
  const details = {
    components: summary === null ? null : { added: summary.added, updated: summary.updated, unchanged: summary.unchanged, deleted: summary.deleted },
    errors: kept,
  };
  await db.query(
    `update job_history set status = $2, success_count = $3, error_count = $4, duration_millis = $5, time_end = now(), details = $6
      where id = $1`,
    [jobId, status, summary?.stored ?? 0, errors.length, durationMs, JSON.stringify(details)],
  );
  return { jobId, status, summary, errors: kept, durationMs };
}
