import type { CatalogCheckSpec } from '@opsdeck/shared';
import { failed, type CheckerContext, type CheckOutcome } from './checker';

/** Counts live catalog items matching the selector; passes when the count lies in [minCount, maxCount]. */
export async function runCatalogCheck(spec: CatalogCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const { selector } = spec;
  const name = selector.name === undefined ? null : selector.name.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
  const result = await context.pool.query<{ count: number }>(
    `select count(*)::integer as count from config_items
      where deleted_at is null
        and ($1::text[] is null or type = any($1))
        and ($2::text is null or name ilike $2)
        and ($3::text[] is null or status = any($3))
        and ($4::text[] is null or health = any($4))
        and ($5::jsonb is null or labels @> $5)`,
    [selector.types ?? null, name, selector.statuses ?? null, selector.healths ?? null, selector.labels === undefined ? null : JSON.stringify(selector.labels)],
  );
  const count = result.rows[0]?.count ?? 0;
  const summary = `${count} matching catalog ${count === 1 ? 'item' : 'items'}`;
  const details = { count };
  const data = { results: { count } };
  if (count < spec.minCount) return { ...failed(`${summary}; expected at least ${spec.minCount}`, details), data };
  if (spec.maxCount !== undefined && count > spec.maxCount) return { ...failed(`${summary}; expected at most ${spec.maxCount}`, details), data };
  return { pass: true, message: summary, details, data };
}
