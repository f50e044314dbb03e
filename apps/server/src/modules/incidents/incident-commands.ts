import type pg from 'pg';
import {
  DEFAULT_HYPOTHESIS_STATUS,
  childHypothesisType,
  type CreatedIncident,
  type CreateIncidentBody,
  type DeletedHypotheses,
  type HypothesisType,
  type IncidentEvidenceInput,
  type LinkedEvidence,
  type LinkEvidenceBody,
} from '@opsdeck/shared';
import { errors } from '../../platform/errors';

/**
 * Runs one command in one transaction, so a failing write leaves none of the others behind. The changelog triggers
 * read the author from opsdeck.person_id, set for this transaction only, as the data API does.
 */
async function inTransaction<T>(pool: pg.Pool, personId: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('opsdeck.person_id', $1, true)`, [personId]);
    const value = await work(client);
    await client.query('commit');
    return value;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw fromReferenceViolation(error) ?? error;
  } finally {
    client.release();
  }
}

/** Evidence naming an item that does not exist (a foreign key violation) is the client's mistake, not a 500. */
function fromReferenceViolation(error: unknown): Error | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, detail } = error as { code?: unknown; detail?: unknown };
  if (code !== '23503') return null;
  return errors.invalidValue(typeof detail === 'string' ? detail : 'The evidence names an item that does not exist');
}

function firstId(result: pg.QueryResult<{ id: string }>): string {
  const row = result.rows[0];
  if (row === undefined) throw new Error('insert returned no row');
  return row.id;
}

function blankToNull(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

async function insertEvidence(client: pg.PoolClient, hypothesisId: string, evidence: IncidentEvidenceInput, createdBy: string): Promise<string> {
  const result = await client.query<{ id: string }>(
    `insert into evidences (hypothesis_id, type, description, evidence, properties, config_id, config_analysis_id, config_change_id,
                            component_id, check_id, created_by)
     values ($1, $2, $3, $4::jsonb, coalesce($5::jsonb, '{}'::jsonb), $6, $7, $8, $9, $10, $11)
     returning id`,
    [
      hypothesisId,
      evidence.type,
      evidence.description ?? null,
      evidence.evidence === undefined || evidence.evidence === null ? null : JSON.stringify(evidence.evidence),
      evidence.properties === undefined ? null : JSON.stringify(evidence.properties),
      evidence.config_id ?? null,
      evidence.config_analysis_id ?? null,
      evidence.config_change_id ?? null,
      evidence.component_id ?? null,
      evidence.check_id ?? null,
      createdBy,
    ],
  );
  return firstId(result);
}

/**
 * The incident, its root hypothesis (same title, status possible) and the evidence it was opened from (spec 000 §7).
 * The creator is commander and communicator until someone else takes over.
 */
export function createIncident(pool: pg.Pool, body: CreateIncidentBody, createdBy: string): Promise<CreatedIncident> {
  return inTransaction(pool, createdBy, async (client) => {
    const incident = await client.query<{ id: string; incident_id: string }>(
      `insert into incidents (title, description, type, severity, status, created_by, commander_id, communicator_id)
       values ($1, $2, $3, $4, $5, $6, $6, $6)
       returning id, incident_id`,
      [body.title, blankToNull(body.description), body.type, body.severity, body.status, createdBy],
    );
    const created = incident.rows[0];
    if (created === undefined) throw new Error('insert returned no row');
    const root = firstId(
      await client.query<{ id: string }>(
        `insert into hypotheses (incident_id, title, type, status, created_by) values ($1, $2, 'root', $3, $4) returning id`,
        [created.id, body.title, DEFAULT_HYPOTHESIS_STATUS, createdBy],
      ),
    );
    const evidenceId = body.evidence === undefined ? null : await insertEvidence(client, root, body.evidence, createdBy);
    return { id: created.id, incident_id: created.incident_id, root_hypothesis_id: root, evidence_id: evidenceId };
  });
}

/** A new hypothesis hangs under the first one (oldest first) that may have children, the root when there is one. */
async function insertLinkHypothesis(client: pg.PoolClient, incidentId: string, title: string, createdBy: string): Promise<string> {
  const existing = await client.query<{ id: string; type: HypothesisType }>(
    `select id, type from hypotheses where incident_id = $1 order by created_at, id`,
    [incidentId],
  );
  const parent = existing.rows.find((row) => childHypothesisType(row.type) !== null);
  const type = parent === undefined ? 'root' : childHypothesisType(parent.type);
  return firstId(
    await client.query<{ id: string }>(
      `insert into hypotheses (incident_id, parent_id, type, title, status, created_by) values ($1, $2, $3, $4, $5, $6) returning id`,
      [incidentId, parent?.id ?? null, type, title, DEFAULT_HYPOTHESIS_STATUS, createdBy],
    ),
  );
}

/** Attaches evidence to a hypothesis of the incident, first creating that hypothesis when a title is given. */
export function linkEvidence(pool: pg.Pool, incidentId: string, body: LinkEvidenceBody, createdBy: string): Promise<LinkedEvidence> {
  return inTransaction(pool, createdBy, async (client) => {
    const incident = await client.query<{ id: string; incident_id: string }>(`select id, incident_id from incidents where id = $1`, [incidentId]);
    const found = incident.rows[0];
    if (found === undefined) throw errors.notFound('Incident');
    let hypothesisId: string;
    if (body.hypothesis_id !== undefined) {
      const hypothesis = await client.query(`select 1 from hypotheses where id = $1 and incident_id = $2`, [body.hypothesis_id, incidentId]);
      if (hypothesis.rowCount === 0) throw errors.notFound('Hypothesis');
      hypothesisId = body.hypothesis_id;
    } else {
      hypothesisId = await insertLinkHypothesis(client, incidentId, body.hypothesis_title ?? '', createdBy);
    }
    const evidenceId = await insertEvidence(client, hypothesisId, body.evidence, createdBy);
    return { id: evidenceId, hypothesis_id: hypothesisId, incident: found };
  });
}

/** Deletes a hypothesis and every one beneath it, with their comments and evidence. */
export function deleteHypothesis(pool: pg.Pool, hypothesisId: string, deletedBy: string): Promise<DeletedHypotheses> {
  return inTransaction(pool, deletedBy, async (client) => {
    const subtree = await client.query<{ id: string }>(
      `with recursive subtree as (
         select id from hypotheses where id = $1
         union all
         select h.id from hypotheses h join subtree s on h.parent_id = s.id
       )
       select id from subtree`,
      [hypothesisId],
    );
    if (subtree.rows.length === 0) throw errors.notFound('Hypothesis');
    const ids = subtree.rows.map((row) => row.id);
    const comments = await client.query(`delete from comments where hypothesis_id = any($1::uuid[])`, [ids]);
    const evidences = await client.query(`delete from evidences where hypothesis_id = any($1::uuid[])`, [ids]);
    const hypotheses = await client.query(`delete from hypotheses where id = any($1::uuid[])`, [ids]);
    return { hypotheses: hypotheses.rowCount ?? 0, evidences: evidences.rowCount ?? 0, comments: comments.rowCount ?? 0 };
  });
}
