import type pg from 'pg';
import { DEFINITION_OF_DONE_DEFAULT_SCRIPTS, isAutomaticDefinitionOfDoneType, mentionsToPlainText } from '@opsdeck/shared';
import { escapeMarkdown, humanDuration, inlineCode, utcTime } from './markdown';

interface IncidentRow {
  id: string;
  incident_id: string;
  title: string;
  description: string | null;
  type: string;
  severity: string | null;
  status: string;
  created_at: string;
  commander: string | null;
  communicator: string | null;
  created_by_name: string | null;
  ended_at: string | null;
}

interface HistoryRow {
  id: string;
  type: string;
  description: string | null;
  created_at: string;
  author: string | null;
  comment_id: string | null;
  responder_name: string | null;
}

interface CommentRow {
  id: string;
  comment: string;
  created_at: string;
  author: string | null;
  hypothesis_title: string | null;
}

interface HypothesisRow {
  id: string;
  parent_id: string | null;
  title: string | null;
  type: string;
  status: string | null;
  created_at: string;
}

interface EvidenceRow {
  id: string;
  hypothesis_id: string;
  type: string;
  description: string | null;
  definition_of_done: boolean;
  done: boolean;
  script: string | null;
  evidence: Record<string, unknown> | null;
  linked_name: string | null;
  linked_state: string | null;
  link: string | null;
}

interface ResponderRow {
  name: string | null;
  type: string;
  responder_type: string | null;
  external_id: string | null;
  link: string | null;
  created_at: string;
  acknowledge_time: string | null;
  signoff_time: string | null;
  close_time: string | null;
  deleted_at: string | null;
}

export interface PostmortemData {
  incident: IncidentRow;
  history: HistoryRow[];
  comments: CommentRow[];
  hypotheses: HypothesisRow[];
  evidences: EvidenceRow[];
  responders: ResponderRow[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Loads an incident by uuid or display id (INC-12); null when there is none. */
export async function loadPostmortem(pool: pg.Pool, idOrDisplayId: string): Promise<PostmortemData | null> {
  const byUuid = UUID.test(idOrDisplayId);
  const incident = (
    await pool.query<IncidentRow>(
      `select i.id, i.incident_id, i.title, i.description, i.type, i.severity, i.status, i.created_at,
              c.name as commander, m.name as communicator, p.name as created_by_name,
              case when i.status in ('resolved', 'closed') then
                coalesce((select max(h.created_at) from incident_histories h
                           where h.incident_id = i.id and h.type in ('incident.status_updated', 'incident_status.updated')),
                         i.updated_at)
              end as ended_at
         from incidents i
         left join people c on c.id = i.commander_id
         left join people m on m.id = i.communicator_id
         left join people p on p.id = i.created_by
        where ${byUuid ? 'i.id = $1::uuid' : 'i.incident_id = $1'}`,
      [idOrDisplayId],
    )
  ).rows[0];
  if (incident === undefined) return null;
  const id = incident.id;
  const history = await pool.query<HistoryRow>(
    `select h.id, h.type, h.description, h.created_at, p.name as author, h.comment_id,
            coalesce(rp.name, rt.name) as responder_name
       from incident_histories h
       left join people p on p.id = h.created_by
       left join responders r on r.id = h.responder_id
       left join people rp on rp.id = r.person_id
       left join teams rt on rt.id = r.team_id
      where h.incident_id = $1
      order by h.created_at, h.id`,
    [id],
  );
  const comments = await pool.query<CommentRow>(
    `select c.id, c.comment, c.created_at, coalesce(p.name, c.external_created_by) as author, h.title as hypothesis_title
       from comments c
       left join people p on p.id = c.created_by
       left join hypotheses h on h.id = c.hypothesis_id
      where c.incident_id = $1
      order by c.created_at, c.id`,
    [id],
  );
  const hypotheses = await pool.query<HypothesisRow>(
    `select id, parent_id, title, type, status, created_at from hypotheses where incident_id = $1 order by created_at, id`,
    [id],
  );
  const evidences = await pool.query<EvidenceRow>(
    `select e.id, e.hypothesis_id, e.type, e.description, e.definition_of_done, e.done, e.script, e.evidence,
            coalesce(ck.name, co.name, ci.name, ca.summary, ca.analyzer, cc.summary, cc.change_type) as linked_name,
            coalesce(ck.status, co.status, ci.health, ca.status, cc.severity) as linked_state,
            case
              when e.check_id is not null then '/health?checkId=' || e.check_id
              when e.component_id is not null then '/topology/' || e.component_id
              when e.config_id is not null then '/catalog/' || e.config_id
              when e.config_analysis_id is not null then '/catalog/' || ca.config_id
              when e.config_change_id is not null then '/catalog/' || cc.config_id
            end as link
       from evidences e
       join hypotheses h on h.id = e.hypothesis_id
       left join checks ck on ck.id = e.check_id
       left join components co on co.id = e.component_id
       left join config_items ci on ci.id = e.config_id
       left join config_analysis ca on ca.id = e.config_analysis_id
       left join config_changes cc on cc.id = e.config_change_id
      where h.incident_id = $1
      order by e.created_at, e.id`,
    [id],
  );
  const responders = await pool.query<ResponderRow>(
    `select coalesce(p.name, t.name) as name, r.type, r.properties ->> 'responderType' as responder_type, r.external_id,
            r.properties ->> 'link' as link, r.created_at, r.acknowledge_time, r.signoff_time, r.close_time, r.deleted_at
       from responders r
       left join people p on p.id = r.person_id
       left join teams t on t.id = r.team_id
      where r.incident_id = $1
      order by r.created_at, r.id`,
    [id],
  );
  return {
    incident,
    history: history.rows,
    comments: comments.rows,
    hypotheses: hypotheses.rows,
    evidences: evidences.rows,
    responders: responders.rows,
  };
}

const EVENT_LABELS: Readonly<Record<string, string>> = {
  'incident.created': 'Incident created',
  'incident.status_updated': 'Status updated',
  'incident_status.updated': 'Status updated',
  'responder.created': 'Responder added',
  'responder.commented': 'Comment',
  'evidence.created': 'Evidence added',
  'evidence.done_definition_added': 'Added to the definition of done',
  'hypothesis.created': 'Hypothesis created',
  'hypothesis.status_updated': 'Hypothesis status updated',
};

function text(value: string | null | undefined, fallback = ''): string {
  return value === null || value === undefined || value.trim() === '' ? fallback : escapeMarkdown(value);
}

function commentText(value: string): string {
  return escapeMarkdown(mentionsToPlainText(value));
}

interface TimelineItem {
  at: Date;
  order: number;
  line: string;
}

function timeline(data: PostmortemData): string[] {
  const items: TimelineItem[] = [];
  const commentIds = new Set<string>();
  const commentsById = new Map(data.comments.map((c) => [c.id, c]));
  data.history.forEach((entry, index) => {
    const by = entry.author === null ? '' : ` by ${text(entry.author)}`;
    const label = EVENT_LABELS[entry.type] ?? entry.type;
    let detail = text(entry.description);
    if (entry.type === 'responder.commented' && entry.comment_id !== null) {
      const comment = commentsById.get(entry.comment_id);
      if (comment !== undefined) {
        commentIds.add(comment.id);
        detail = commentText(comment.comment);
      }
    }
    if (entry.type === 'responder.created') detail = text(entry.responder_name);
    items.push({ at: new Date(entry.created_at), order: index, line: `- ${utcTime(new Date(entry.created_at))} — **${label}**${by}${detail === '' ? '' : `: ${detail}`}` });
  });
  data.comments.forEach((comment, index) => {
    if (commentIds.has(comment.id)) return;
    const by = comment.author === null ? '' : ` by ${text(comment.author)}`;
    items.push({ at: new Date(comment.created_at), order: data.history.length + index, line: `- ${utcTime(new Date(comment.created_at))} — **Comment**${by}: ${commentText(comment.comment)}` });
  });
  items.sort((a, b) => a.at.getTime() - b.at.getTime() || a.order - b.order);
  return items.length === 0 ? ['No changelog found'] : items.map((item) => item.line);
}

function hypothesisLabel(h: HypothesisRow): string {
  return `**${text(h.title, '(no title)')}** (${h.type}, ${h.status ?? 'no status'})`;
}

function hypothesisTree(hypotheses: HypothesisRow[]): string[] {
  const children = new Map<string | null, HypothesisRow[]>();
  const ids = new Set(hypotheses.map((h) => h.id));
  for (const h of hypotheses) {
    const parent = h.parent_id !== null && ids.has(h.parent_id) ? h.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), h]);
  }
  const lines: string[] = [];
  const walk = (parent: string | null, depth: number): void => {
    for (const h of children.get(parent) ?? []) {
      lines.push(`${'  '.repeat(depth)}- ${hypothesisLabel(h)}`);
      walk(h.id, depth + 1);
    }
  };
  walk(null, 0);
  return lines.length === 0 ? ['No hypotheses recorded.'] : lines;
}

function evidenceLine(e: EvidenceRow): string {
  const parts = [`[${e.type}]`];
  const description = text(e.description);
  if (description !== '') parts.push(description);
  if (e.type === 'comment') {
    const comment = e.evidence?.comment;
    if (typeof comment === 'string' && comment.trim() !== '' && comment !== e.description) parts.push(`“${commentText(comment)}”`);
  }
  if (e.linked_name !== null) {
    const name = text(e.linked_name);
    const state = e.linked_state === null ? '' : ` (${text(e.linked_state)})`;
    parts.push(e.link === null ? `${name}${state}` : `[${name}](${e.link})${state}`);
  }
  if (e.type === 'log') {
    const lines = e.evidence?.lines;
    if (Array.isArray(lines)) parts.push(`${lines.length} log line${lines.length === 1 ? '' : 's'}`);
  }
  return parts.join(' — ');
}

function evidenceSection(data: PostmortemData): string[] {
  if (data.evidences.length === 0) return ['There are no evidences provided for this incident'];
  const lines: string[] = [];
  for (const h of data.hypotheses) {
    const own = data.evidences.filter((e) => e.hypothesis_id === h.id);
    if (own.length === 0) continue;
    lines.push(`### ${text(h.title, '(no title)')}`, '');
    for (const e of own) lines.push(`- ${evidenceLine(e)}`);
    lines.push('');
  }
  return lines;
}

function definitionOfDone(data: PostmortemData): string[] {
  const items = data.evidences.filter((e) => e.definition_of_done);
  if (items.length === 0) return ['No definition of done was set.'];
  const done = items.filter((e) => e.done).length;
  const lines = [`${done} of ${items.length} done.`, ''];
  for (const e of items) {
    const how = isAutomaticDefinitionOfDoneType(e.type)
      ? ` — automatic: ${inlineCode(e.script ?? DEFINITION_OF_DONE_DEFAULT_SCRIPTS[e.type])}`
      : ' — manual';
    lines.push(`- [${e.done ? 'x' : ' '}] ${evidenceLine(e)}${how}`);
  }
  return lines;
}

function responderState(r: ResponderRow): string {
  if (r.deleted_at !== null) return 'Removed';
  if (r.acknowledge_time === null) return 'Created';
  if (r.signoff_time === null) return 'Acknowledged';
  if (r.close_time === null) return 'Resolved';
  return 'Closed';
}

function respondersSection(responders: ResponderRow[]): string[] {
  if (responders.length === 0) return ['No responders.'];
  const lines = ['| Responder | Type | External id | State | Added |', '|---|---|---|---|---|'];
  for (const r of responders) {
    const kind = r.type === 'person' ? 'person' : text(r.responder_type, 'team');
    const external = r.external_id === null ? '' : r.link === null ? text(r.external_id) : `[${text(r.external_id)}](${r.link})`;
    lines.push(`| ${text(r.name, 'unknown')} | ${kind} | ${external} | ${responderState(r)} | ${utcTime(new Date(r.created_at))} |`);
  }
  return lines;
}

/** The postmortem as Markdown; `now` ends the duration of an incident that is still open. */
export function renderPostmortem(data: PostmortemData, now = new Date()): string {
  const i = data.incident;
  const created = new Date(i.created_at);
  const end = i.ended_at === null ? now : new Date(i.ended_at);
  const duration = `${humanDuration(end.getTime() - created.getTime())}${i.ended_at === null ? ' (ongoing)' : ''}`;
  const lines = [
    `# ${i.incident_id}: ${text(i.title, '(no title)')}`,
    '',
    '## Summary',
    '',
    '| | |',
    '|---|---|',
    `| Type | ${i.type} |`,
    `| Severity | ${i.severity ?? 'none'} |`,
    `| Status | ${i.status} |`,
    `| Commander | ${text(i.commander, 'none')} |`,
    `| Communicator | ${text(i.communicator, 'none')} |`,
    `| Created | ${utcTime(created)}${i.created_by_name === null ? '' : ` by ${text(i.created_by_name)}`} |`,
    `| Duration | ${duration} |`,
    '',
  ];
  if (i.description !== null && i.description.trim() !== '') lines.push(text(i.description), '');
  lines.push('## Timeline', '', ...timeline(data), '');
  lines.push('## Hypotheses', '', ...hypothesisTree(data.hypotheses), '');
  lines.push('## Evidence', '', ...evidenceSection(data));
  if (lines.at(-1) !== '') lines.push('');
  lines.push('## Definition of done', '', ...definitionOfDone(data), '');
  lines.push('## Responders', '', ...respondersSection(data.responders), '');
  return lines.join('\n');
}
