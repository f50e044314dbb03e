import type pg from 'pg';
import { incidentRuleSpecSchema, type IncidentRuleSpec } from '@opsdeck/shared';
import { writeHooksFor, type WriteMethod } from '../../data-api/write-hooks';
import type { Database } from '../../db/database';
import { incidentRuleErrors } from './incident-rule-errors';
import { checkRuleFilter } from './rule-filter';
import { checkRuleTemplate } from './rule-templates';

type Row = Readonly<Record<string, unknown>>;

/**
 * Tables the server alone writes: the data API reads them (resource `incident`) and refuses every write, except that
 * an alert may be deleted (clearing a test alert; its evidence keeps its description and loses the link).
 */
export const ENGINE_TABLES = ['alerts', 'incident_rule_groups', 'incident_rule_sources'] as const;

/**
 * The spec as the schema reads it, or a coded 400 naming the first field at fault. A rule is stored as JSON; a string
 * here is a client that sent the YAML text itself, which the settings page never does.
 */
export function parseIncidentRuleSpec(spec: unknown): IncidentRuleSpec {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) throw incidentRuleErrors.spec('', 'it must be an object');
  const result = incidentRuleSpecSchema.safeParse(spec);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw incidentRuleErrors.spec(issue?.path.join('.') ?? '', issue?.message ?? 'it does not match the schema');
  }
  return result.data;
}

/** The schema, then the CEL filter and the Liquid templates, which the schema cannot compile. */
export function validateIncidentRuleSpec(spec: unknown): IncidentRuleSpec {
  const parsed = parseIncidentRuleSpec(spec);
  const problem = checkRuleFilter(parsed.filter);
  if (problem !== null) throw incidentRuleErrors.filter(problem);
  for (const field of ['title', 'description'] as const) {
    const text = parsed.incident[field];
    if (text === undefined) continue;
    const templateProblem = checkRuleTemplate(text);
    if (templateProblem !== null) throw incidentRuleErrors.template(field, templateProblem);
  }
  return parsed;
}

/** Spec rules that need no database; throws a coded 400 on the first problem. A POST must carry a spec. */
export function validateIncidentRuleRows(rows: readonly Row[], method: WriteMethod): void {
  if (method === 'DELETE') return;
  for (const row of rows) {
    if (!('spec' in row)) {
      if (method === 'POST') throw incidentRuleErrors.spec('', 'a rule needs a spec with at least filter and incident');
      continue;
    }
    validateIncidentRuleSpec(row.spec);
  }
}

/** Responders name existing teams (by name) and people (by e-mail), so a typo is found when saving, not when paging. */
export async function checkIncidentRuleResponders(pool: pg.Pool, rows: readonly Row[]): Promise<void> {
  for (const row of rows) {
    if (!('spec' in row)) continue;
    const spec = incidentRuleSpecSchema.safeParse(row.spec);
    if (!spec.success) continue;
    const teams = spec.data.responders?.teams ?? [];
    const people = (spec.data.responders?.people ?? []).map((email) => email.toLowerCase());
    if (teams.length === 0 && people.length === 0) continue;
    const found = await pool.query<{ teams: string[]; people: string[] }>(
      `select coalesce((select array_agg(name) from teams where name = any ($1::text[]) and deleted_at is null), '{}') as teams,
              coalesce((select array_agg(lower(email)) from people where lower(email) = any ($2::text[]) and deleted_at is null), '{}') as people`,
      [teams, people],
    );
    const known = found.rows[0] ?? { teams: [], people: [] };
    const missingTeams = teams.filter((team) => !known.teams.includes(team));
    if (missingTeams.length > 0) throw incidentRuleErrors.responder('spec.responders.teams', `no team is named ${missingTeams.map((t) => `'${t}'`).join(', ')}`);
    const missingPeople = people.filter((email) => !known.people.includes(email));
    if (missingPeople.length > 0) throw incidentRuleErrors.responder('spec.responders.people', `nobody has the e-mail ${missingPeople.join(', ')}`);
  }
}

/** Registers the save rules on every data-API write of incident rules, and refuses writes to the engine's tables. */
export function registerIncidentRuleSaveRules(db: Database): void {
  const hooks = writeHooksFor(db);
  hooks.registerCheck('incident_rules', async (rows, method) => {
    if (method === 'DELETE') return;
    // The cheap rules first, so a bad spec is refused with their codes before any lookup.
    validateIncidentRuleRows(rows, method);
    await checkIncidentRuleResponders(db.pool, rows);
  });
  hooks.register('incident_rules', (rows, method) => validateIncidentRuleRows(rows, method));
  for (const table of ENGINE_TABLES) {
    hooks.register(table, (_rows, method) => {
      if (table === 'alerts' && method === 'DELETE') return;
      throw incidentRuleErrors.readOnly(table);
    });
  }
}
