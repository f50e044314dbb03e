import type pg from 'pg';
import { incidentRuleSpecSchema, resolveIncidentRuleSpec, type IncidentRuleSource, type ResolvedIncidentRuleSpec } from '@opsdeck/shared';
import type { EventHandler, QueuedEvent } from '../../platform/event-queue';
import { evaluateRuleFilter } from './rule-filter';
import { DESCRIPTION_LIMIT, renderRuleTemplate, TITLE_LIMIT } from './rule-templates';

/** The event-queue consumer name of the engine: it gets its own copy of each event it handles (ADR 0055). */
export const INCIDENT_RULES_CONSUMER = 'incident-rules';

/** The events the engine handles: a source turning unhealthy or firing, and turning healthy or resolving. */
export const INCIDENT_RULE_EVENTS = ['check.failed', 'check.passed', 'component.unhealthy', 'component.healthy', 'alert.firing', 'alert.resolved'] as const;

const SOURCE_OF_EVENT: Readonly<Record<(typeof INCIDENT_RULE_EVENTS)[number], { type: IncidentRuleSource; idKey: string }>> = {
  'check.failed': { type: 'check', idKey: 'check_id' },
  'check.passed': { type: 'check', idKey: 'check_id' },
  'component.unhealthy': { type: 'component', idKey: 'component_id' },
  'component.healthy': { type: 'component', idKey: 'component_id' },
  'alert.firing': { type: 'alert', idKey: 'alert_id' },
  'alert.resolved': { type: 'alert', idKey: 'alert_id' },
};

/** Incident statuses a rule may still add to, and auto-resolve from (the transition table allows resolved from each). */
const ACTIVE_STATUSES = ['new', 'open', 'investigating', 'mitigated'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Two workers opening the same group at once: the loser retries and joins the winner's group. */
const MAX_ATTEMPTS = 3;

type Scope = Record<IncidentRuleSource, Record<string, unknown>>;

interface LiveSource {
  type: IncidentRuleSource;
  id: string;
  name: string;
  /** failing: an unhealthy check or component, a firing alert; recovered: healthy or resolved; other: warning, unknown. */
  state: 'failing' | 'recovered' | 'other';
  scope: Scope;
}

interface Rule {
  id: string;
  name: string;
  spec: ResolvedIncidentRuleSpec;
}

const SOURCE_ROWS: Readonly<Record<IncidentRuleSource, string>> = {
  check: `select to_jsonb(c) - 'spec' as row from checks c where c.id = $1 and c.deleted_at is null`,
  component: `select to_jsonb(c) - 'properties' - 'summary' - 'log_selectors' as row from components c where c.id = $1 and c.deleted_at is null`,
  alert: `select to_jsonb(a) as row from alerts a where a.id = $1`,
};

function stateOf(type: IncidentRuleSource, row: Record<string, unknown>): LiveSource['state'] {
  const status = row.status;
  if (type === 'alert') return status === 'firing' ? 'failing' : 'recovered';
  if (status === 'unhealthy') return 'failing';
  return status === 'healthy' ? 'recovered' : 'other';
}

/**
 * The source as it is now, not as the event described it: events of one source may be handled out of order by two
 * workers, and acting on the live state makes the last one handled agree with the database.
 */
async function loadSource(pool: pg.Pool, event: QueuedEvent): Promise<LiveSource | null> {
  const known = SOURCE_OF_EVENT[event.name as keyof typeof SOURCE_OF_EVENT];
  if (known === undefined) return null;
  const raw = event.properties[known.idKey] ?? event.properties.id;
  const id = typeof raw === 'string' && UUID.test(raw) ? raw : null;
  if (id === null) return null;
  const result = await pool.query<{ row: Record<string, unknown> }>(SOURCE_ROWS[known.type], [id]);
  const row = result.rows[0]?.row;
  if (row === undefined) return null;
  const scope: Scope = { check: {}, component: {}, alert: {} };
  scope[known.type] = row;
  return { type: known.type, id, name: typeof row.name === 'string' ? row.name : id, state: stateOf(known.type, row), scope };
}

async function loadRules(pool: pg.Pool, options: { includeDeleted: boolean; ids?: string[] } = { includeDeleted: false }): Promise<Rule[]> {
  const result = await pool.query<{ id: string; name: string; spec: unknown }>(
    `select id, name, spec from incident_rules
      where ($1::boolean or deleted_at is null) and ($2::uuid[] is null or id = any ($2::uuid[]))
      order by created_at, id`,
    [options.includeDeleted, options.ids ?? null],
  );
  // A spec written around the data API's save rules (straight SQL) that does not parse is skipped, never guessed at.
  return result.rows.flatMap((row) => {
    const parsed = incidentRuleSpecSchema.safeParse(row.spec);
    return parsed.success ? [{ id: row.id, name: row.name, spec: resolveIncidentRuleSpec(parsed.data) }] : [];
  });
}

/** The value at a path such as alert.labels.alertname; the rest after labels or annotations is one key. */
export function valueAtPath(scope: Scope, path: string): unknown {
  const [root, field, ...rest] = path.split('.');
  const source = scope[root as IncidentRuleSource] as Record<string, unknown> | undefined;
  if (source === undefined || field === undefined) return undefined;
  const value = source[field];
  if (rest.length === 0) return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const nested = value as Record<string, unknown>;
  const key = rest.join('.');
  if (key in nested) return nested[key];
  // Not a dotted key: walk it.
  return rest.reduce<unknown>((current, part) => (typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[part] : undefined), value);
}

/** Sources group by the values of groupBy; without it, each source is its own group. */
export function groupKeyOf(spec: ResolvedIncidentRuleSpec, source: Pick<LiveSource, 'type' | 'id' | 'scope'>): string {
  if (spec.groupBy.length === 0) return `${source.type}:${source.id}`;
  return JSON.stringify(spec.groupBy.map((path) => valueAtPath(source.scope, path) ?? null));
}

function describeSource(source: LiveSource): string {
  switch (source.type) {
    case 'alert':
      return `Alert ${source.name} is firing`;
    case 'check':
      return `Health check ${source.name} is failing`;
    case 'component':
      return `Component ${source.name} is unhealthy`;
  }
}

const EVIDENCE_COLUMN: Readonly<Record<IncidentRuleSource, { type: string; column: string }>> = {
  check: { type: 'check', column: 'check_id' },
  component: { type: 'topology', column: 'component_id' },
  alert: { type: 'alert', column: 'alert_id' },
};

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

interface Rendered {
  title: string;
  description: string;
}

async function render(rule: Rule, source: LiveSource): Promise<Rendered> {
  const scope = { ...source.scope, rule: { id: rule.id, name: rule.name } };
  const title = (await renderRuleTemplate(rule.spec.incident.title, scope, TITLE_LIMIT)) || rule.name;
  const description =
    rule.spec.incident.description === undefined
      ? `Opened by the incident rule '${rule.name}': ${describeSource(source).toLowerCase()}.`
      : await renderRuleTemplate(rule.spec.incident.description, scope, DESCRIPTION_LIMIT);
  return { title, description };
}

interface TeamRow {
  id: string;
  spec: Record<string, unknown> | null;
  members: string[];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * The responder a team answers through: its email client when that names a recipient, else its Jira client when its
 * defaults name the project, issue type and priority; null when neither does (its members are added instead).
 */
function teamResponder(spec: Record<string, unknown> | null, incident: Rendered): Record<string, unknown> | null {
  const clients = spec?.responder_clients;
  if (typeof clients !== 'object' || clients === null) return null;
  const client = (type: string): Record<string, unknown> | null => {
    const entry = (clients as Record<string, unknown>)[type];
    return typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : null;
  };
  const defaults = (entry: Record<string, unknown> | null): Record<string, unknown> =>
    typeof entry?.defaults === 'object' && entry.defaults !== null ? (entry.defaults as Record<string, unknown>) : {};
  const email = client('email');
  if (email !== null && text(defaults(email).to) !== '') {
    return { responderType: 'email', to: text(defaults(email).to), subject: incident.title, body: incident.description || incident.title };
  }
  const jira = client('jira');
  const jiraDefaults = defaults(jira);
  const instance = text(jira?.connection);
  if (jira !== null && instance !== '' && ['project', 'issueType', 'priority'].every((field) => text(jiraDefaults[field]) !== '')) {
    return {
      responderType: 'jira',
      project: text(jiraDefaults.project),
      issueType: text(jiraDefaults.issueType),
      priority: text(jiraDefaults.priority),
      summary: incident.title,
      description: incident.description || incident.title,
      instance,
    };
  }
  return null;
}

async function addResponders(client: pg.PoolClient, incidentId: string, rule: Rule, incident: Rendered): Promise<void> {
  const teams = rule.spec.responders?.teams ?? [];
  const emails = (rule.spec.responders?.people ?? []).map((email) => email.toLowerCase());
  const people = new Set<string>();
  if (emails.length > 0) {
    const found = await client.query<{ id: string }>(`select id from people where lower(email) = any ($1::text[]) and deleted_at is null`, [emails]);
    for (const row of found.rows) people.add(row.id);
  }
  if (teams.length > 0) {
    const found = await client.query<TeamRow>(
      `select t.id, t.spec, coalesce(array(select m.person_id from team_members m join people p on p.id = m.person_id
                                            where m.team_id = t.id and p.deleted_at is null), '{}') as members
         from teams t where t.name = any ($1::text[]) and t.deleted_at is null order by t.name`,
      [teams],
    );
    for (const team of found.rows) {
      const properties = teamResponder(team.spec, incident);
      if (properties === null) {
        for (const member of team.members) people.add(member);
        continue;
      }
      await client.query(`insert into responders (incident_id, type, team_id, properties) values ($1, 'system', $2, $3)`, [incidentId, team.id, JSON.stringify(properties)]);
    }
  }
  for (const person of people) {
    await client.query(`insert into responders (incident_id, type, person_id, properties) values ($1, 'person', $2, $3)`, [
      incidentId,
      person,
      JSON.stringify({ responderType: 'person' }),
    ]);
  }
}

interface OpenGroup {
  id: string;
  incident_id: string;
  hypothesis_id: string | null;
  expired: boolean;
  incident_status: string;
}

async function history(client: pg.PoolClient, incidentId: string, type: 'incident.rule_matched' | 'incident.sources_recovered', description: string): Promise<void> {
  await client.query(`insert into incident_histories (incident_id, type, description) values ($1, $2, $3)`, [incidentId, type, description.slice(0, 2000)]);
}

async function openIncident(client: pg.PoolClient, rule: Rule, groupKey: string, rendered: Rendered): Promise<OpenGroup> {
  const { incident } = rule.spec;
  const created = await client.query<{ id: string }>(
    `insert into incidents (title, description, type, severity, status) values ($1, $2, $3, $4, 'open') returning id`,
    [rendered.title, rendered.description, incident.type, incident.severity],
  );
  const incidentId = created.rows[0]?.id;
  if (incidentId === undefined) throw new Error('incident insert returned no id');
  const hypothesis = await client.query<{ id: string }>(`insert into hypotheses (incident_id, title, type) values ($1, $2, 'root') returning id`, [
    incidentId,
    `Sources matched by the rule '${rule.name}'`,
  ]);
  const hypothesisId = hypothesis.rows[0]?.id ?? null;
  // The unique index on open groups is the guard: a second worker opening this group at once fails here.
  const group = await client.query<{ id: string }>(
    `insert into incident_rule_groups (rule_id, group_key, incident_id, hypothesis_id) values ($1, $2, $3, $4) returning id`,
    [rule.id, groupKey, incidentId, hypothesisId],
  );
  const groupId = group.rows[0]?.id;
  if (groupId === undefined) throw new Error('group insert returned no id');
  await addResponders(client, incidentId, rule, rendered);
  return { id: groupId, incident_id: incidentId, hypothesis_id: hypothesisId, expired: false, incident_status: 'open' };
}

/**
 * One rule matched one failing source, in one transaction: the rule's open group for the key (opened with its incident
 * when there is none, or when the last one's window passed or its incident was resolved or closed), the source attached
 * as evidence once, and the changelog rows.
 */
async function applyMatch(pool: pg.Pool, rule: Rule, source: LiveSource, rendered: Rendered): Promise<void> {
  const groupKey = groupKeyOf(rule.spec, source);
  for (let attempt = 1; ; attempt += 1) {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const found = await client.query<OpenGroup>(
        `select g.id, g.incident_id, g.hypothesis_id, i.status as incident_status,
                g.last_matched_at < now() - make_interval(secs => $3::double precision / 1000) as expired
           from incident_rule_groups g join incidents i on i.id = g.incident_id
          where g.rule_id = $1 and g.group_key = $2 and g.closed_at is null
          for update of g`,
        [rule.id, groupKey, rule.spec.groupWindowMs],
      );
      let group = found.rows[0] ?? null;
      if (group !== null && (group.expired || !ACTIVE_STATUSES.includes(group.incident_status))) {
        await client.query(`update incident_rule_groups set closed_at = now() where id = $1`, [group.id]);
        group = null;
      }
      const opened = group === null;
      group ??= await openIncident(client, rule, groupKey, rendered);
      const attached = await client.query<{ inserted: boolean; was_recovered: boolean }>(
        `insert into incident_rule_sources as s (group_id, source_type, source_id) values ($1, $2, $3)
         on conflict (group_id, source_type, source_id) do update set recovered = false, recovered_at = null, matched_at = now()
         returning (xmax = 0) as inserted, (select o.recovered from incident_rule_sources o
                                              where o.group_id = $1 and o.source_type = $2 and o.source_id = $3) as was_recovered`,
        [group.id, source.type, source.id],
      );
      const row = attached.rows[0];
      let hypothesisId = group.hypothesis_id;
      if (hypothesisId === null) {
        const hypothesis = await client.query<{ id: string }>(`insert into hypotheses (incident_id, title, type) values ($1, $2, 'root') returning id`, [
          group.incident_id,
          `Sources matched by the rule '${rule.name}'`,
        ]);
        hypothesisId = hypothesis.rows[0]?.id ?? null;
        await client.query(`update incident_rule_groups set hypothesis_id = $2 where id = $1`, [group.id, hypothesisId]);
      }
      if (row?.inserted === true && hypothesisId !== null) {
        const { type, column } = EVIDENCE_COLUMN[source.type];
        const evidence = await client.query<{ id: string }>(
          `insert into evidences (hypothesis_id, type, description, ${column}) values ($1, $2, $3, $4) returning id`,
          [hypothesisId, type, describeSource(source), source.id],
        );
        await client.query(`update incident_rule_sources set evidence_id = $4 where group_id = $1 and source_type = $2 and source_id = $3`, [
          group.id,
          source.type,
          source.id,
          evidence.rows[0]?.id ?? null,
        ]);
      }
      if (opened) await history(client, group.incident_id, 'incident.rule_matched', `Rule '${rule.name}' opened the incident: ${describeSource(source)}`);
      else if (row?.inserted === true) await history(client, group.incident_id, 'incident.rule_matched', `Rule '${rule.name}' added: ${describeSource(source)}`);
      else if (row?.was_recovered === true) await history(client, group.incident_id, 'incident.rule_matched', `Rule '${rule.name}': ${describeSource(source)} again`);
      await client.query(`update incident_rule_groups set last_matched_at = now() where id = $1`, [group.id]);
      await client.query('commit');
      return;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      if (!isUniqueViolation(error) || attempt >= MAX_ATTEMPTS) throw error;
    } finally {
      client.release();
    }
  }
}

/**
 * A source recovered: marked so in every open group holding it; a group whose sources have all recovered resolves
 * its incident (when the rule auto-resolves and the incident is still active) and closes. Each group in its own
 * transaction, holding the group's row so a match arriving meanwhile either lands first or finds the group closed.
 */
async function applyRecovery(pool: pg.Pool, source: LiveSource): Promise<number> {
  const marked = await pool.query<{ group_id: string }>(
    `update incident_rule_sources s set recovered = true, recovered_at = now()
       from incident_rule_groups g
      where g.id = s.group_id and g.closed_at is null and s.source_type = $1 and s.source_id = $2
      returning s.group_id`,
    [source.type, source.id],
  );
  let resolved = 0;
  const groups = [...new Set(marked.rows.map((row) => row.group_id))];
  if (groups.length === 0) return 0;
  const rules = new Map(
    (await pool.query<{ group_id: string; rule_id: string }>(`select id as group_id, rule_id from incident_rule_groups where id = any ($1::uuid[])`, [groups])).rows.map(
      (row) => [row.group_id, row.rule_id],
    ),
  );
  const ruleById = new Map((await loadRules(pool, { includeDeleted: true, ids: [...new Set(rules.values())] })).map((rule) => [rule.id, rule]));
  for (const groupId of groups) {
    const rule = ruleById.get(rules.get(groupId) ?? '');
    const client = await pool.connect();
    try {
      await client.query('begin');
      const locked = await client.query<{ incident_id: string; incident_status: string; pending: number }>(
        `select g.incident_id, i.status as incident_status,
                (select count(*)::integer from incident_rule_sources s where s.group_id = g.id and not s.recovered) as pending
           from incident_rule_groups g join incidents i on i.id = g.incident_id
          where g.id = $1 and g.closed_at is null
          for update of g`,
        [groupId],
      );
      const group = locked.rows[0];
      if (group !== undefined && group.pending === 0) {
        const ruleName = rule?.name ?? 'deleted rule';
        const autoResolve = rule?.spec.autoResolve ?? true;
        if (!ACTIVE_STATUSES.includes(group.incident_status)) {
          // A person resolved or closed it already: the group ends, and a new failure opens a new incident.
          await client.query(`update incident_rule_groups set closed_at = now() where id = $1`, [groupId]);
        } else if (autoResolve) {
          await history(client, group.incident_id, 'incident.sources_recovered', `Every source matched by the rule '${ruleName}' recovered: resolved automatically`);
          await client.query(`update incidents set status = 'resolved' where id = $1`, [group.incident_id]);
          await client.query(`update incident_rule_groups set closed_at = now() where id = $1`, [groupId]);
          resolved += 1;
        } else {
          await history(client, group.incident_id, 'incident.sources_recovered', `Every source matched by the rule '${ruleName}' recovered (the rule does not resolve incidents itself)`);
        }
      }
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  return resolved;
}

export interface RuleEngineOptions {
  pool: pg.Pool;
  /** Called for a rule whose filter could not be evaluated for a source (a missing key, a wrong type). */
  onFilterError?: (rule: { id: string; name: string }, source: { type: IncidentRuleSource; id: string }, error: string) => void;
}

/** The engine's handlers, one per event it handles; each acts on the live state of the event's source. */
export function incidentRuleHandlers(options: RuleEngineOptions): Record<(typeof INCIDENT_RULE_EVENTS)[number], EventHandler> {
  const { pool } = options;
  async function handle(event: QueuedEvent): Promise<void> {
    const source = await loadSource(pool, event);
    if (source === null) return;
    if (source.state === 'recovered') {
      await applyRecovery(pool, source);
      return;
    }
    if (source.state !== 'failing') return;
    const rules = await loadRules(pool);
    for (const rule of rules) {
      if (!rule.spec.sources.includes(source.type)) continue;
      const outcome = evaluateRuleFilter(rule.spec.filter, source.scope);
      if ('error' in outcome) {
        options.onFilterError?.(rule, source, outcome.error);
        continue;
      }
      if (!outcome.match) continue;
      // Rendering is CPU work outside the transaction: PGlite's single backend waits while one is open.
      await applyMatch(pool, rule, source, await render(rule, source));
    }
  }
  return Object.fromEntries(INCIDENT_RULE_EVENTS.map((name) => [name, handle])) as Record<(typeof INCIDENT_RULE_EVENTS)[number], EventHandler>;
}
