import type pg from 'pg';
import type { PlaybookApproval, PlaybookRun, PlaybookRunAction } from '@opsdeck/shared';

type Queryable = Pick<pg.PoolClient, 'query'>;

/** An exec artifact as the API lists it (its content is downloaded from /api/artifacts/{id}). */
export const ARTIFACT_JSON = `json_build_object('id', x.id, 'path', x.path, 'filename', regexp_replace(x.path, '^.*/', ''),
  'size', x.size, 'checksum', x.checksum, 'created_at', x.created_at)`;

/** json_build_object writes timestamps as ISO 8601 text, the form the data API answers the runs list with. */
const ACTION_JSON = `json_build_object(
  'id', a.id, 'playbook_run_id', a.playbook_run_id, 'name', a.name, 'status', a.status,
  'scheduled_time', a.scheduled_time, 'start_time', a.start_time, 'end_time', a.end_time, 'error', a.error, 'result', a.result,
  'artifacts', (select coalesce(json_agg(${ARTIFACT_JSON} order by x.path), '[]'::json) from exec_artifacts x where x.playbook_run_action_id = a.id))`;

const RUN_SQL = `
  select json_build_object(
    'id', r.id,
    'playbook_id', r.playbook_id,
    'playbooks', json_build_object('id', p.id, 'name', p.name, 'title', p.title, 'icon', p.icon),
    'status', r.status,
    'parameters', r.parameters,
    'config_id', r.config_id,
    'component_id', r.component_id,
    'check_id', r.check_id,
    'target', case
      when ci.id is not null then json_build_object('type', 'config', 'id', ci.id, 'name', ci.name, 'kind', ci.type)
      when co.id is not null then json_build_object('type', 'component', 'id', co.id, 'name', co.name, 'kind', co.type)
      when ch.id is not null then json_build_object('type', 'check', 'id', ch.id, 'name', ch.name, 'kind', ch.type)
    end,
    'scheduled_time', r.scheduled_time,
    'start_time', r.start_time,
    'end_time', r.end_time,
    'created_at', r.created_at,
    'created_by', r.created_by,
    'created_by_name', cb.name,
    'error', r.error,
    'request', r.request,
    'actions', (select coalesce(json_agg(${ACTION_JSON} order by a.position), '[]'::json)
                  from playbook_run_actions a where a.playbook_run_id = r.id)
  ) as run,
  r.spec -> 'approval' as approval,
  (select coalesce(json_agg(coalesce(ap.name, ap.email) order by pa.created_at), '[]'::json)
     from playbook_run_approvals pa join people ap on ap.id = pa.person_id
    where pa.playbook_run_id = r.id) as approved_by
  from playbook_runs r
  join playbooks p on p.id = r.playbook_id
  left join config_items ci on ci.id = r.config_id
  left join components co on co.id = r.component_id
  left join checks ch on ch.id = r.check_id
  left join people cb on cb.id = r.created_by
 where r.id = $1`;

interface RunRow {
  run: Omit<PlaybookRun, 'approval'>;
  approval: PlaybookApproval | null;
  approved_by: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A run as GET /api/playbook/run/{id} answers it: the playbook, the target's name and kind, who asked, its actions in spec order. */
export async function loadPlaybookRun(client: Queryable, id: string): Promise<PlaybookRun | null> {
  if (!UUID.test(id)) return null;
  const found = await client.query<RunRow>(RUN_SQL, [id]);
  const row = found.rows[0];
  if (row === undefined) return null;
  const approval =
    row.approval === null
      ? null
      : {
          type: row.approval.type ?? 'any',
          people: row.approval.approvers.people ?? [],
          teams: row.approval.approvers.teams ?? [],
          approved_by: row.approved_by,
        };
  return { ...row.run, approval };
}

export async function loadPlaybookRunAction(client: Queryable, id: string): Promise<PlaybookRunAction | null> {
  if (!UUID.test(id)) return null;
  const found = await client.query<{ action: PlaybookRunAction }>(`select ${ACTION_JSON} as action from playbook_run_actions a where a.id = $1`, [id]);
  return found.rows[0]?.action ?? null;
}
