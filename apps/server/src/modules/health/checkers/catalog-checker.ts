import type { CatalogCheckSpec } from '@opsdeck/shared';
import { failed, type CheckerContext, type CheckOutcome } from './checker';

/** Counts live catalog items matching any of the selectors; passes when the count lies in [minCount, maxCount]. */
export async function runCatalogCheck(spec: CatalogCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const selectors = spec.selector.map((selector) => ({
    ...selector,
    name: selector.name === undefined ? undefined : selector.name.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%'),
  }));
  const result = await context.pool.query<{ count: number }>(
    `select count(*)::integer as count from config_items c
      where c.deleted_at is null
        and exists (
          select 1 from jsonb_array_elements($1::jsonb) s
           where (s->'types' is null or c.type in (select jsonb_array_elements_text(s->'types')))
             and (s->>'name' is null or c.name ilike s->>'name')
             and (s->'statuses' is null or c.status in (select jsonb_array_elements_text(s->'statuses')))
             and (s->'healths' is null or c.health in (select jsonb_array_elements_text(s->'healths')))
             and (s->'labels' is null or c.labels @> (s->'labels')))`,
    [JSON.stringify(selectors)],
  );
  const count = result.rows[0]?.count ?? 0;
  const summary = `${count} matching catalog ${count === 1 ? 'item' : 'items'}`;
  const details = { count };
  const data = { results: { count } };
  if (count < spec.minCount) return { ...failed(`${summary}; expected at least ${spec.minCount}`, details), data };
  if (spec.maxCount !== undefined && count > spec.maxCount) return { ...failed(`${summary}; expected at most ${spec.maxCount}`, details), data };
  return { pass: true, message: summary, details, data };
}
