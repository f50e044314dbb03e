import type pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { isScraperKind, scrapeConfigJsonSchema } from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { errors } from '../../platform/errors';
import { registerSchemaRoute } from '../../platform/schema-route';
import { writeHooksFor } from '../../data-api/write-hooks';
import { connectionUrlOf } from '../connections';
import { checkSpecTargets, encryptSpecSecrets, isInlineUrl, isSecretEnvelope, isValidSchedule, sealSecret } from '../health';
import { validateScraperSpec } from './spec';

const TABLE = 'config_scrapers';
const READ = { resource: 'config_scrapers', action: 'read' } as const;
/** `scheme://user:password@…`: a DSN that carries its own credentials. */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:[^/?#@]+@/i;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isResource(value: Record<string, unknown>): boolean {
  return value.kind === 'ScrapeConfig' || (typeof value.apiVersion === 'string' && value.spec !== undefined);
}

/** The bare spec of a column value that may be a whole resource; null when it is neither. */
function bareSpec(value: unknown): Record<string, unknown> | null {
  if (!isRecord(value)) return null;
  if (!isResource(value)) return value;
  return isRecord(value.spec) ? value.spec : null;
}

/** Each source entry with the path the errors name it by. */
function entriesOf(spec: Record<string, unknown>): Array<{ kind: string; field: string; entry: Record<string, unknown> }> {
  const found: Array<{ kind: string; field: string; entry: Record<string, unknown> }> = [];
  for (const [kind, list] of Object.entries(spec)) {
    if (!isScraperKind(kind) || !Array.isArray(list)) continue;
    list.forEach((entry: unknown, index) => {
      if (isRecord(entry)) found.push({ kind, field: `spec.${kind}[${index}]`, entry });
    });
  }
  return found;
}

/** A plain string or `{value}` sealed; references (`valueFrom`) and envelopes stay as they are. */
function sealValue(key: Buffer, value: unknown): unknown {
  if (typeof value === 'string') return value === '' ? value : sealSecret(key, value);
  if (isRecord(value) && !isSecretEnvelope(value) && typeof value.value === 'string' && value.value !== '' && value.valueFrom === undefined) {
    return sealSecret(key, value.value);
  }
  return value;
}

/**
 * What the generic sealer of canary specs does not know: a user name is half a credential, and an sql source's DSN
 * (Mission Control writes it in `connection`) carries its password inline, so the whole DSN is sealed.
 */
function sealEntry(key: Buffer, kind: string, entry: Record<string, unknown>): Record<string, unknown> {
  const sealed: Record<string, unknown> = { ...entry };
  if (kind === 'http' || kind === 'sql') {
    if (entry.username !== undefined) sealed.username = sealValue(key, entry.username);
    if (isRecord(entry.auth) && entry.auth.username !== undefined) sealed.auth = { ...entry.auth, username: sealValue(key, entry.auth.username) };
  }
  if (kind === 'sql') {
    for (const field of ['connection', 'url'] as const) {
      const value = entry[field];
      if (typeof value === 'string' && URL_WITH_PASSWORD.test(value.trim())) sealed[field] = sealSecret(key, value.trim());
    }
  }
  return sealed;
}

/**
 * The spec as stored: secrets sealed the canary way (ADR 0043), so the data API, the editor and job history only ever
 * see `{"$encrypted": …}`. Sources open them with decryptSpecSecrets just before they run.
 */
export function sealScraperSpec<T>(key: Buffer, value: T): T {
  if (!isRecord(value)) return value;
  const spec = bareSpec(value);
  if (spec === null) return encryptSpecSecrets(key, value);
  const sealedSpec: Record<string, unknown> = { ...spec };
  for (const [kind, list] of Object.entries(spec)) {
    if (isScraperKind(kind) && Array.isArray(list)) sealedSpec[kind] = list.map((item: unknown) => (isRecord(item) ? sealEntry(key, kind, item) : item));
  }
  const rebuilt = isResource(value) ? { ...value, spec: sealedSpec } : sealedSpec;
  return encryptSpecSecrets(key, rebuilt) as T;
}

/** `connection://ns/name` or a bare name: a stored connection; a URL with another scheme is inline. */
function connectionReference(value: unknown): string | null {
  const text = typeof value === 'string' ? value.trim() : isRecord(value) && typeof value.value === 'string' ? value.value.trim() : '';
  if (text === '' || isInlineUrl(text)) return null;
  return text;
}

/**
 * The rules that need the database: every connection a source names exists, a url next to a connection stays on that
 * connection's origin, and no postgres DSN names the console's own database (checkSpecTargets, as for canaries).
 */
export async function checkScraperSpecTargets(pool: pg.Pool, value: unknown): Promise<void> {
  const spec = bareSpec(value);
  if (spec === null) return;
  for (const { field, entry } of entriesOf(spec)) {
    for (const name of ['connection', 'kubeconfig'] as const) {
      const reference = connectionReference(entry[name]);
      if (reference === null || (name === 'kubeconfig' && !reference.startsWith('connection://'))) continue;
      let url: string | null | undefined;
      try {
        url = await connectionUrlOf(pool, reference);
      } catch (error) {
        throw errors.invalidScraperSpec(`${field}.${name}`, error instanceof Error ? error.message : String(error));
      }
      if (url === undefined) throw errors.invalidScraperSpec(`${field}.${name}`, `names the connection '${reference}', which does not exist`);
    }
  }
  await checkSpecTargets(pool, { spec });
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
    for (const row of rows) if (row.spec !== undefined) await checkScraperSpecTargets(pool, row.spec);
  });
  hooks.register(TABLE, scraperRowsValidator(roots));
  hooks.registerTransform(TABLE, (rows) => rows.map((row) => (row.spec === undefined ? row : { ...row, spec: sealScraperSpec(secretKey, row.spec) })));
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
