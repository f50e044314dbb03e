import type pg from 'pg';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { logBackendSpecSchema, logBackendTypeOf, type LogBackendSpec } from '@opsdeck/shared';
import { writeHooksFor, type WriteMethod } from '../../data-api/write-hooks';
import type { Database } from '../../db/database';
import type { Principal } from '../../platform/principal';
import { leavesConnectionOrigin, resolveConnection } from '../connections';
import { logErrors } from './log-errors';
import { pathProblem } from './log-roots';
import { templateProblem } from './log-templates';

const TABLE = 'logging_backends';
/** Columns the database keeps: who created a row is the writer, and the timestamps are set by defaults and triggers. */
const SERVER_COLUMNS = ['created_by', 'created_at', 'updated_at'] as const;

type Row = Readonly<Record<string, unknown>>;

function fieldOf(issuePath: ReadonlyArray<PropertyKey>): string {
  return issuePath.reduce<string>((field, key) => (typeof key === 'number' ? `${field}[${key}]` : `${field}.${String(key)}`), 'spec');
}

function firstIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  return { field: issue === undefined ? 'spec' : fieldOf(issue.path), message: issue?.message ?? 'is not valid' };
}

/** The spec as an object: the UI may send the YAML it edits as text; a parse error never quotes the text. */
function specValue(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return parseYaml(raw) as unknown;
  } catch {
    throw logErrors.spec('spec', 'is not valid YAML or JSON');
  }
}

/** Parses a row's spec with the shared schema; throws OD_LOG_BACKEND_SPEC naming the field of the first problem. */
export function parseLogBackendSpec(raw: unknown): LogBackendSpec {
  const parsed = logBackendSpecSchema.safeParse(specValue(raw));
  if (!parsed.success) {
    const { field, message } = firstIssue(parsed.error);
    throw logErrors.spec(field, message);
  }
  return parsed.data;
}

function checkTemplates(spec: LogBackendSpec): void {
  const texts: Array<[string, string | undefined]> = [
    ...(spec.file?.paths ?? []).map((value, index): [string, string] => [`spec.file.paths[${index}]`, value]),
    ['spec.loki.query', spec.loki?.query],
    ['spec.opensearch.query', spec.opensearch?.query],
    ['spec.elasticsearch.query', spec.elasticsearch?.query],
    ['spec.kubernetes.labelSelector', spec.kubernetes?.labelSelector],
  ];
  for (const [field, text] of texts) {
    if (text === undefined) continue;
    const problem = templateProblem(text);
    if (problem !== null) throw logErrors.spec(field, `is not a valid template: ${problem}`);
  }
}

/** Credentials in a spec's URL would be readable by everyone who reads backends: they belong in a connection. */
function checkUrls(spec: LogBackendSpec): void {
  for (const type of ['loki', 'opensearch', 'elasticsearch'] as const) {
    const url = spec[type]?.url;
    if (url === undefined) continue;
    const parsed = new URL(url);
    if (parsed.username !== '' || parsed.password !== '') throw logErrors.spec(`spec.${type}.url`, 'holds credentials: store them in a connection and name it');
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw logErrors.spec(`spec.${type}.url`, 'must be http or https');
  }
}

function checkPaths(spec: LogBackendSpec, roots: readonly string[]): void {
  (spec.file?.paths ?? []).forEach((pattern, index) => {
    const problem = pathProblem(pattern, roots);
    if (problem !== null) throw logErrors.path(`spec.file.paths[${index}]`, problem, roots);
  });
}

/** The rules a row needs no database for; throws a coded 400 on the first problem. */
export function validateLogBackendRow(row: Row, method: WriteMethod, roots: readonly string[]): LogBackendSpec | null {
  if (method === 'POST' || 'name' in row) {
    if (typeof row.name !== 'string' || row.name.trim() === '') throw logErrors.name();
  }
  if (method === 'POST' && (row.spec === undefined || row.spec === null)) throw logErrors.spec('spec', 'is required');
  if (!('spec' in row)) return null;
  const spec = parseLogBackendSpec(row.spec);
  checkTemplates(spec);
  checkUrls(spec);
  checkPaths(spec, roots);
  return spec;
}

/** The connection a spec names must exist, be of a kind that serves it, and sit on the origin of the URL it is used for. */
export async function checkLogBackendConnection(pool: pg.Pool, key: Buffer, spec: LogBackendSpec): Promise<void> {
  const type = logBackendTypeOf(spec);
  if (type === null || type === 'file') return;
  const block = spec[type];
  const reference = block?.connection;
  if (reference === undefined) return;
  const field = `spec.${type}.connection`;
  let connection;
  try {
    connection = await resolveConnection(pool, key, reference);
  } catch (error) {
    throw logErrors.connection(field, error instanceof Error ? error.message : String(error));
  }
  if (type === 'kubernetes') {
    if (connection.type !== 'kubernetes') throw logErrors.connection(field, `connection '${reference}' is of type ${connection.type}, not kubernetes`);
    return;
  }
  const url = spec[type]?.url;
  if (url !== undefined && leavesConnectionOrigin(connection.url, url)) {
    throw logErrors.connection(`spec.${type}.url`, `spec.${type}.url leaves the origin of connection '${reference}', whose credentials are sent nowhere else`);
  }
}

/**
 * The creator is whoever saved it and the source is the UI; on a change the body cannot set who created the row or
 * when. A spec sent as YAML text is stored as the object it parses to.
 */
export function fillLogBackendRows(rows: readonly Row[], method: WriteMethod, principal: Principal | null): Array<Record<string, unknown>> {
  return rows.map((row) => {
    if (method === 'DELETE') return { ...row };
    const filled: Record<string, unknown> = Object.fromEntries(Object.entries(row).filter(([column]) => !(SERVER_COLUMNS as readonly string[]).includes(column)));
    if (typeof filled.spec === 'string') filled.spec = specValue(filled.spec);
    if (method === 'POST') return { ...filled, created_by: principal?.personId ?? null, source: 'UI' };
    return filled;
  });
}

/** Registers the save rules on every data-API write of logging_backends (POST, upsert and PATCH). */
export function registerLogBackendSaveRules(db: Database, key: Buffer, roots: readonly string[]): void {
  const hooks = writeHooksFor(db);
  hooks.registerCheck(TABLE, async (rows, method) => {
    if (method === 'DELETE') return;
    for (const row of rows) {
      // The cheap rules first, so a bad body is refused with their codes before any connection is looked up.
      const spec = validateLogBackendRow(row, method, roots);
      if (spec !== null) await checkLogBackendConnection(db.pool, key, spec);
    }
  });
  hooks.register(TABLE, (rows, method) => {
    if (method !== 'DELETE') for (const row of rows) validateLogBackendRow(row, method, roots);
  });
  hooks.registerTransform(TABLE, (rows, method, principal) => fillLogBackendRows(rows, method, principal));
}
