import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { CheckRelationshipsSpec, RelationshipSelectorSpec, RelationshipValueSpec } from '@opsdeck/shared';
import { createCelEnvironment, describeCelError, runWithinBudget } from '../../platform/cel/cel-environment';
import { celToText, toCel } from '../../platform/cel/cel-values';

/**
 * canary-checker's check `relationships`: after each run, the check (or each check its transform made, with its own
 * labels) is linked to the topology components and catalog items its selectors find, and the links it made before
 * and no longer finds are removed. Links are `check:<hash of the selector>`, apart from the topology's and the ones
 * people make by hand.
 */

/** The most targets one selector links a check to: a selector matching the whole catalog is a mistake, not a link. */
export const MAX_RELATIONSHIP_TARGETS = 100;
const SELECTOR_PREFIX = 'check:';
const EXPRESSION_BUDGET_MS = 100;

const environment = createCelEnvironment({ unlistedVariablesAreDyn: true });

export interface RelatedCheck {
  id: string;
  canaryId: string;
  name: string;
  labels: Record<string, string>;
  pass: boolean;
  message: string;
}

function selectorId(selector: RelationshipSelectorSpec): string {
  return `${SELECTOR_PREFIX}${createHash('sha256').update(JSON.stringify(selector)).digest('hex').slice(0, 16)}`;
}

/** One field's text for this check: its value, the check's label, or the CEL over `result`; null when it has none. */
function fieldValue(field: RelationshipValueSpec | undefined, check: RelatedCheck): string | null | undefined {
  if (field === undefined) return undefined;
  if (field.value !== undefined) return field.value;
  if (field.label !== undefined) return check.labels[field.label] ?? null;
  if (field.expr === undefined) return null;
  const expression = field.expr;
  const result = { name: check.name, labels: check.labels, pass: check.pass, message: check.message };
  const value = runWithinBudget(() => environment.evaluate(expression, { result: toCel(result) }), EXPRESSION_BUDGET_MS);
  const text = celToText(value);
  return text === '' ? null : text;
}

interface Resolved {
  id?: string;
  externalID?: string;
  name?: string;
  namespace?: string;
  type?: string;
}

/** The selector's fields for this check; null when one of them has no value, so the selector links to nothing. */
function resolve(selector: RelationshipSelectorSpec, check: RelatedCheck): Resolved | null {
  const resolved: Resolved = {};
  for (const key of ['id', 'externalID', 'name', 'namespace', 'type'] as const) {
    const value = fieldValue(selector[key], check);
    if (value === null) return null;
    if (value !== undefined) resolved[key] = value;
  }
  return resolved;
}

async function componentIds(pool: pg.Pool, fields: Resolved): Promise<string[]> {
  const found = await pool.query<{ id: string }>(
    `select id from components
      where deleted_at is null and ($1::text is null or id::text = $1) and ($2::text is null or external_id = $2)
        and ($3::text is null or name = $3) and ($4::text is null or namespace = $4) and ($5::text is null or type = $5)
      order by id limit $6`,
    [fields.id ?? null, fields.externalID ?? null, fields.name ?? null, fields.namespace ?? null, fields.type ?? null, MAX_RELATIONSHIP_TARGETS],
  );
  return found.rows.map((row) => row.id);
}

async function configIds(pool: pg.Pool, fields: Resolved): Promise<string[]> {
  const found = await pool.query<{ id: string }>(
    `select id from config_items
      where deleted_at is null and ($1::text is null or id::text = $1) and ($2::text is null or $2 = any(external_id))
        and ($3::text is null or name = $3) and ($4::text is null or tags->>'namespace' = $4) and ($5::text is null or type = $5)
      order by id limit $6`,
    [fields.id ?? null, fields.externalID ?? null, fields.name ?? null, fields.namespace ?? null, fields.type ?? null, MAX_RELATIONSHIP_TARGETS],
  );
  return found.rows.map((row) => row.id);
}

const TABLES = {
  components: { table: 'check_component_relationships', target: 'component_id', find: componentIds },
  configs: { table: 'check_config_relationships', target: 'config_id', find: configIds },
} as const;

/**
 * Links one check as its relationships say, and removes the links of its selectors it no longer finds. Returns the
 * problems (an expression that failed), for the run's job record; the links of a selector that failed are kept.
 */
export async function formCheckRelationships(pool: pg.Pool, check: RelatedCheck, spec: CheckRelationshipsSpec): Promise<string[]> {
  const problems: string[] = [];
  for (const kind of ['components', 'configs'] as const) {
    const { table, target, find } = TABLES[kind];
    const wanted: Array<{ targetId: string; selector: string }> = [];
    const kept: string[] = [];
    for (const [index, selector] of (spec[kind] ?? []).entries()) {
      const id = selectorId(selector);
      let fields: Resolved | null;
      try {
        fields = resolve(selector, check);
      } catch (error) {
        problems.push(`relationships.${kind}[${index}]: ${describeCelError(error)}`);
        kept.push(id);
        continue;
      }
      if (fields === null) continue;
      for (const targetId of await find(pool, fields)) wanted.push({ targetId, selector: id });
    }
    // Table and column names are fixed above; every value is bound.
    await pool.query(
      `with wanted as (
         select * from unnest($3::uuid[], $4::text[]) as w(target_id, selector_id)
       ), gone as (
         delete from ${table} r
          where r.check_id = $1 and r.selector_id like '${SELECTOR_PREFIX}%' and not r.selector_id = any($5::text[])
            and not exists (select 1 from wanted w where w.target_id = r.${target} and w.selector_id = r.selector_id)
       )
       insert into ${table} (${target}, check_id, canary_id, selector_id)
       select target_id, $1, $2, selector_id from wanted
       on conflict (${target}, check_id, selector_id) do update set deleted_at = null`,
      [check.id, check.canaryId, wanted.map((link) => link.targetId), wanted.map((link) => link.selector), kept],
    );
  }
  return problems;
}
