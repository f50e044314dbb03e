import type pg from 'pg';
import { z } from 'zod';

export const RESOURCE_SEARCH_LIMIT = 50;

const selector = z.object({ search: z.string().max(200).optional() }).passthrough();

export const resourceSearchBody = z.object({
  checks: z.array(selector).max(20).optional(),
  components: z.array(selector).max(20).optional(),
  configs: z.array(selector).max(20).optional(),
});
export type ResourceSearchBody = z.infer<typeof resourceSearchBody>;

const checkHit = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  type: z.string(),
  status: z.string().nullable(),
  namespace: z.string().nullable(),
  canary_id: z.string(),
});
const componentHit = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  type: z.string().nullable(),
  status: z.string(),
  namespace: z.string().nullable(),
  topology_id: z.string().nullable(),
});
const configHit = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  config_class: z.string(),
  status: z.string().nullable(),
  health: z.string().nullable(),
  tags: z.record(z.string(), z.unknown()),
});

export const resourceSearchResponse = z.object({
  checks: z.array(checkHit),
  components: z.array(componentHit),
  configs: z.array(configHit),
});
export type ResourceSearchResponse = z.infer<typeof resourceSearchResponse>;

/** '%' and '_' in the user's text match themselves, not any characters. */
function likePatterns(selectors: ReadonlyArray<{ search?: string | undefined }>): string[] {
  return selectors.map((s) => `%${(s.search ?? '').trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

/**
 * Each list is searched only when asked for, by name (case-insensitive substring of any selector's text), without
 * soft-deleted rows, ordered by name and capped at RESOURCE_SEARCH_LIMIT.
 */
export async function searchResources(pool: pg.Pool, body: ResourceSearchBody): Promise<ResourceSearchResponse> {
  const run = async <T extends pg.QueryResultRow>(selectors: ResourceSearchBody['checks'], sql: string): Promise<T[]> => {
    if (selectors === undefined || selectors.length === 0) return [];
    return (await pool.query<T>(sql, [likePatterns(selectors), RESOURCE_SEARCH_LIMIT])).rows;
  };
  const checks = await run<z.infer<typeof checkHit>>(
    body.checks,
    `select id, name, icon, type, status, namespace, canary_id from checks
      where deleted_at is null and name ilike any ($1::text[]) order by name, id limit $2`,
  );
  const components = await run<z.infer<typeof componentHit>>(
    body.components,
    `select id, name, icon, type, status, namespace, topology_id from components
      where deleted_at is null and name ilike any ($1::text[]) order by name, id limit $2`,
  );
  const configs = await run<z.infer<typeof configHit>>(
    body.configs,
    `select id, name, type, config_class, status, health, tags from config_items
      where deleted_at is null and name ilike any ($1::text[]) order by name, id limit $2`,
  );
  return { checks, components, configs };
}
