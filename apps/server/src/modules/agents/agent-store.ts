import type pg from 'pg';
import type { AgentDetail } from '@opsdeck/shared';
import { hashToken } from '../../auth/shared/session-token';
import { readSettings, type AgentSettings } from './agent-settings';
import { newAgentToken } from './agent-token';
import { inTransaction } from '../../db/transaction';

export interface AgentInput {
  name: string;
  description?: string | null | undefined;
  properties?: Record<string, string> | undefined;
  kubernetes?: AgentSettings['kubernetes'];
  pushTelemetry?: AgentSettings['pushTelemetry'];
}

export type AgentPatch = Omit<Partial<AgentInput>, 'name'>;

/** The stored row: the settings column holds what AgentDetail spreads out as kubernetes and pushTelemetry. */
type AgentRow = Omit<AgentDetail, 'kubernetes' | 'pushTelemetry'> & { settings: unknown };

// access_token_hash is never selected: no read path can leak it by accident.
const COLUMNS = 'id, name, description, hostname, version, properties, settings, last_seen, last_received, created_by, created_at, updated_at';

function toDetail(row: AgentRow): AgentDetail {
  const { settings, ...rest } = row;
  return { ...rest, ...readSettings(settings) };
}

/** Only the parts the caller sent, so a patch merged with `||` leaves the other part as stored. */
function settingsOf(input: AgentPatch): AgentSettings {
  return {
    ...(input.kubernetes === undefined ? {} : { kubernetes: input.kubernetes }),
    ...(input.pushTelemetry === undefined ? {} : { pushTelemetry: input.pushTelemetry }),
  };
}

export async function getAgent(pool: pg.Pool, id: string): Promise<AgentDetail | null> {
  const result = await pool.query<AgentRow>(`select ${COLUMNS} from agents where id = $1 and deleted_at is null`, [id]);
  const row = result.rows[0];
  return row === undefined ? null : toDetail(row);
}

/** Creates the agent with a fresh access token and returns that token; the database keeps only its SHA-256. */
export async function createAgent(pool: pg.Pool, input: AgentInput, createdBy: string | null): Promise<{ agent: AgentDetail; accessToken: string }> {
  const accessToken = newAgentToken();
  const result = await pool.query<AgentRow>(
    `insert into agents (name, description, properties, settings, access_token_hash, created_by)
     values ($1, $2, $3, $4, $5, $6) returning ${COLUMNS}`,
    [input.name, input.description ?? null, JSON.stringify(input.properties ?? {}), JSON.stringify(settingsOf(input)), hashToken(accessToken), createdBy],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('insert returned no row');
  return { agent: toDetail(row), accessToken };
}

/** Applies a partial update to a live agent; returns null when there is none with that id. */
export async function updateAgent(pool: pg.Pool, id: string, patch: AgentPatch): Promise<AgentDetail | null> {
  const result = await pool.query<AgentRow>(
    `update agents
        set description = case when $2::boolean then $3 else description end,
            properties = coalesce($4::jsonb, properties),
            settings = settings || $5::jsonb
      where id = $1 and deleted_at is null
      returning ${COLUMNS}`,
    [
      id,
      patch.description !== undefined,
      patch.description ?? null,
      patch.properties === undefined ? null : JSON.stringify(patch.properties),
      JSON.stringify(settingsOf(patch)),
    ],
  );
  const row = result.rows[0];
  return row === undefined ? null : toDetail(row);
}

/** The resources an agent created that deletion with cleanup soft-deletes, in the order they are written. */
const CLEANUP_TABLES = ['checks', 'canaries', 'config_items', 'config_scrapers'] as const;

export type CleanupCounts = Record<(typeof CLEANUP_TABLES)[number], number>;

/**
 * Soft-deletes a live agent (spec 001 §4) and clears its token hash, so the token stops working at once; with cleanup
 * its live checks, canaries, config items and scrapers are soft-deleted in the same transaction, so a failure leaves
 * the agent and everything it created as they were. Returns null when there is no live agent with that id.
 */
export async function deleteAgent(pool: pg.Pool, id: string, cleanup: boolean): Promise<CleanupCounts | null> {
  return inTransaction(pool, async (client) => {
    const deleted = await client.query(
      'update agents set deleted_at = now(), access_token_hash = null where id = $1 and deleted_at is null returning id',
      [id],
    );
    if (deleted.rowCount === 0) return null;
    const counts: CleanupCounts = { checks: 0, canaries: 0, config_items: 0, config_scrapers: 0 };
    if (!cleanup) return counts;
    for (const table of CLEANUP_TABLES) {
      // The table name comes from the constant list above, never from the request.
      const result = await client.query(`update ${table} set deleted_at = now() where agent_id = $1 and deleted_at is null`, [id]);
      counts[table] = result.rowCount ?? 0;
    }
    return counts;
  });
}

/** Gives a live agent a new access token, replacing the stored hash so the old token stops working; null when none. */
export async function rotateAgentToken(pool: pg.Pool, id: string): Promise<{ id: string; name: string; accessToken: string } | null> {
  const accessToken = newAgentToken();
  const result = await pool.query<{ id: string; name: string }>(
    'update agents set access_token_hash = $2 where id = $1 and deleted_at is null returning id, name',
    [id, hashToken(accessToken)],
  );
  const row = result.rows[0];
  return row === undefined ? null : { id: row.id, name: row.name, accessToken };
}
