import type pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { SCRAPER_EXEC_CONNECTION_KINDS, scrapeConfigJsonSchema } from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { errors } from '../../platform/errors';
import { registerSchemaRoute } from '../../platform/schema-route';
import { rowScopedTransform, writeHooksFor } from '../../data-api/write-hooks';
import { connectionUrlOf } from '../connections';
import { checkSpecTargets, checkValueReferences, isInlineUrl, isValidSchedule } from '../health';
import { holdsSecrets } from '../../platform/secret-fields';
import { bareSpec, entriesOf, isRecord, SCRAPER_LAYOUT, sealScraperSpec } from './scraper-secrets';
import { scraperExecValidator } from './scraper-exec-permission';
import { validateScraperSpec } from './spec';

const TABLE = 'config_scrapers';
const READ = { resource: 'config_scrapers', action: 'read' } as const;
/** `connection://ns/name` or a bare name: a stored connection; a URL with another scheme is inline. */
function connectionReference(value: unknown): string | null {
  const text = typeof value === 'string' ? value.trim() : isRecord(value) && typeof value.value === 'string' ? value.value.trim() : '';
  if (text === '' || isInlineUrl(text)) return null;
  return text;
}

/**
 * The rules that need the database: a connection a source names is not ambiguous, a url next to a connection stays on
 * that connection's origin, and no postgres DSN names the console's own database (checkSpecTargets, as for canaries).
 * A connection that does not exist yet is accepted, as for canaries and as Kubernetes accepts a ScrapeConfig before its
 * Secret: the run fails naming it until it is created, and the origin rules are applied then.
 */
export async function checkScraperSpecTargets(pool: pg.Pool, value: unknown, namespace: string | null = null): Promise<void> {
  const spec = bareSpec(value);
  if (spec === null) return;
  for (const { field, entry } of entriesOf(spec)) {
    const named: Array<[string, unknown]> = [
      ['connection', entry.connection],
      ['kubeconfig', entry.kubeconfig],
      // Only the kinds that run: the others are refused by name by the spec's own rules.
      ...(isRecord(entry.connections)
        ? Object.entries(entry.connections)
            .filter(([kind]) => SCRAPER_EXEC_CONNECTION_KINDS[kind]?.support === 'runs')
            .map(([kind, value]): [string, unknown] => [`connections.${kind}.connection`, isRecord(value) ? value.connection : undefined])
        : []),
    ];
    for (const [name, value] of named) {
      const reference = connectionReference(value);
      if (reference === null || (name === 'kubeconfig' && !reference.startsWith('connection://'))) continue;
      try {
        await connectionUrlOf(pool, reference);
      } catch (error) {
        throw errors.invalidScraperSpec(`${field}.${name}`, error instanceof Error ? error.message : String(error));
      }
    }
  }
  await checkSpecTargets(pool, { spec });
  // An http source's env valueFrom, as a canary's: a value of an existing connection goes only to its origin.
  await checkValueReferences(pool, spec, namespace);
}

/** Data API rows of config_scrapers: the spec column's rules, and the schedule column's when it is set. */
export function scraperRowsValidator(roots: readonly string[]): (rows: ReadonlyArray<Record<string, unknown>>) => void {
  return (rows) => {
    for (const row of rows) {
      if (row.spec !== undefined) validateScraperSpec(row.spec, { roots });
      const schedule = row.schedule;
      if (schedule === undefined || schedule === null || schedule === '') continue;
      if (typeof schedule !== 'string' || !isValidSchedule(schedule)) {
        throw errors.invalidScraperSpec('schedule', `'${String(schedule)}' is not a valid schedule (@every 30m, @daily or a cron)`);
      }
    }
  };
}

/** Save-time rules and sealing for every write of config_scrapers through /api/db. */
export function registerScraperSpecHooks(context: AppContext, roots: readonly string[], secretKey: Buffer): void {
  const hooks = writeHooksFor(context.db);
  const { pool } = context.db;
  hooks.registerCheck(TABLE, async (rows) => {
    for (const row of rows) if (row.spec !== undefined) await checkScraperSpecTargets(pool, row.spec, typeof row.namespace === 'string' ? row.namespace : null);
  });
  // The permission first: someone who may not run scripts is told so, whatever else the spec gets wrong.
  hooks.register(TABLE, scraperExecValidator);
  hooks.register(TABLE, scraperRowsValidator(roots));
  hooks.registerTransform(
    TABLE,
    rowScopedTransform(
      'spec',
      (spec) => holdsSecrets(SCRAPER_LAYOUT, spec),
      (id, spec) => sealScraperSpec(secretKey, id, spec),
      () => errors.secretNeedsOneRow('scraper'),
    ),
  );
}

/** `GET /api/schemas/scrape-config.schema.json`, as the canary schema is served. */
export function registerScrapeConfigSchemaRoute(scoped: FastifyInstance): void {
  registerSchemaRoute(scoped, {
    file: 'scrape-config.schema.json',
    permission: READ,
    tag: 'catalog',
    summary: 'The scraper spec (a ScrapeConfig or its spec) as a JSON Schema, for editors that check YAML or JSON as it is typed',
    document: scrapeConfigJsonSchema,
  });
}
