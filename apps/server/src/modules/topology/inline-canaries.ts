import type pg from 'pg';
import { syncCanaryChecks } from '../health';
import type { ParsedComponent } from './spec';
import type { InlineCanary, TopologyRow } from './types';

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/**
 * The canaries a topology keeps for its inline checks (`checks[].inline`, ADR 0073 amended): one per inline entry,
 * known by `source` = `topology:<topology id>/<key in the spec>`, named `<topology>-<component>`. A run makes them
 * match the spec before it builds the tree, so the checks it attaches are the ones the spec says; a database trigger
 * (migration 0119) deletes them with their topology.
 */

export function inlineSource(topologyId: string, key: string): string {
  return `topology:${topologyId}/${key}`;
}

/** Every inline canary of the tree, in spec order. */
export function inlineCanariesOf(root: ParsedComponent): InlineCanary[] {
  const found: InlineCanary[] = [];
  const visit = (component: ParsedComponent): void => {
    for (const selector of component.checks) if (selector.inline !== undefined) found.push(selector.inline);
    component.components.forEach(visit);
  };
  visit(root);
  return found;
}

/** `<topology>-<component>`, numbered from the second one a component holds so every canary keeps its own name. */
function namesOf(topology: Pick<TopologyRow, 'name'>, inline: readonly InlineCanary[]): string[] {
  const seen = new Map<string, number>();
  return inline.map((entry) => {
    const base = `${topology.name}-${entry.owner}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}-${count}`;
  });
}

export interface InlineSyncSummary {
  created: number;
  updated: number;
  removed: number;
}

/**
 * Creates, updates or brings back the canary of each inline entry and deletes those the spec no longer holds; each
 * canary whose row changed has its checks synced at once (new checks due now), as a save through the API would.
 */
export async function syncInlineCanaries(db: Queryable & (pg.Pool | pg.PoolClient), topology: Pick<TopologyRow, 'id' | 'name' | 'namespace'>, inline: readonly InlineCanary[]): Promise<InlineSyncSummary> {
  const summary: InlineSyncSummary = { created: 0, updated: 0, removed: 0 };
  const names = namesOf(topology, inline);
  const sources = inline.map((entry) => inlineSource(topology.id, entry.key));
  const changed: string[] = [];
  for (const [index, entry] of inline.entries()) {
    const source = sources[index] ?? '';
    const name = names[index] ?? topology.name;
    const spec = JSON.stringify(entry.spec);
    const found = await db.query<{ id: string; same: boolean }>(
      `select id, (name = $2 and namespace = $3 and spec = $4::jsonb and deleted_at is null) as same
         from canaries where source = $1 order by created_at, id limit 1`,
      [source, name, topology.namespace, spec],
    );
    const existing = found.rows[0];
    if (existing === undefined) {
      const inserted = await db.query<{ id: string }>('insert into canaries (name, namespace, spec, source) values ($1, $2, $3::jsonb, $4) returning id', [
        name,
        topology.namespace,
        spec,
        source,
      ]);
      const id = inserted.rows[0]?.id;
      if (id !== undefined) changed.push(id);
      summary.created += 1;
    } else if (!existing.same) {
      await db.query('update canaries set name = $2, namespace = $3, spec = $4::jsonb, deleted_at = null where id = $1', [existing.id, name, topology.namespace, spec]);
      changed.push(existing.id);
      summary.updated += 1;
    }
  }
  const removed = await db.query<{ id: string }>(
    `update canaries set deleted_at = now()
      where source like $1 and deleted_at is null and not (source = any ($2::text[]))
      returning id`,
    [`topology:${topology.id}/%`, sources],
  );
  summary.removed = removed.rowCount ?? 0;
  for (const id of [...changed, ...removed.rows.map((row) => row.id)]) await syncCanaryChecks(db, id, { reschedule: true });
  return summary;
}
