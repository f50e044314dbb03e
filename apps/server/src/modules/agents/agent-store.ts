import type pg from 'pg';
import type { AgentDetail } from '@opsdeck/shared';
import { hashToken } from '../../auth/session-token';
import { readSettings, type AgentSettings } from './agent-settings';
import { newAgentToken } from './agent-token';

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
