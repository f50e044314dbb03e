import type pg from 'pg';
import type { LogBackendType, LogSelector } from '@opsdeck/shared';
import { logErrors } from './log-errors';
import type { LogSubjectContext } from './log-templates';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).flatMap(([key, entry]) => (typeof entry === 'string' ? [[key, entry]] : [])));
}

interface SubjectRow {
  kind: 'component' | 'config';
  name: string;
  type: string | null;
  labels: unknown;
  tags: unknown;
}

/** The live component, or else configuration item, with this id; OD_LOGS_ID or OD_LOGS_NOT_FOUND otherwise. */
export async function findLogSubject(pool: pg.Pool, id: string): Promise<LogSubjectContext> {
  if (id === '') throw logErrors.id('id is missing');
  if (!UUID.test(id)) throw logErrors.id(`'${id.slice(0, 64)}' is not a uuid`);
  const result = await pool.query<SubjectRow>(
    `select 'component' as kind, c.name, c.type, c.labels, '{}'::jsonb as tags from components c where c.id = $1 and c.deleted_at is null
     union all
     select 'config', i.name, i.type, i.labels, i.tags from config_items i where i.id = $1 and i.deleted_at is null
     limit 1`,
    [id],
  );
  const row = result.rows[0];
  if (row === undefined) throw logErrors.subject(id);
  const tags = stringMap(row.tags);
  return { kind: row.kind, id, name: row.name, type: row.type ?? '', labels: { ...stringMap(row.labels), ...tags }, tags };
}

function selectorsOf(value: unknown): LogSelector[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const record = entry as Record<string, unknown>;
    if (typeof record.name !== 'string' || record.name === '') return [];
    return [{ name: record.name, type: typeof record.type === 'string' ? record.type : '', labels: stringMap(record.labels) }];
  });
}

/** A subject's selectors as the logs page lists them: a component's from components_with_logs, an item's from config_log_selectors. */
export async function logSelectorsOf(pool: pg.Pool, subject: LogSubjectContext): Promise<LogSelector[]> {
  if (subject.kind === 'component') {
    const result = await pool.query<{ log_selectors: unknown }>('select log_selectors from components_with_logs where id = $1', [subject.id]);
    return selectorsOf(result.rows[0]?.log_selectors);
  }
  const result = await pool.query<{ selectors: unknown }>('select config_log_selectors($1) as selectors', [subject.id]);
  return selectorsOf(result.rows[0]?.selectors);
}

export interface SelectedBackend {
  id: string;
  name: string;
  type: LogBackendType | null;
  spec: unknown;
  /** The labels of the matching route, or of the component's own selector. */
  labels: Record<string, string>;
}

/**
 * The backend behind a selector name (the first selector when none is given): a backend whose routes match the
 * subject, or, for a selector the component carries itself, the live backend of that name.
 */
export async function selectLogBackend(pool: pg.Pool, subject: LogSubjectContext, name: string): Promise<SelectedBackend> {
  const selectors = await logSelectorsOf(pool, subject);
  const chosen = name === '' ? selectors[0] : selectors.find((selector) => selector.name === name);
  if (chosen === undefined) throw logErrors.selector(name, [...new Set(selectors.map((selector) => selector.name))]);
  const matched = await pool.query<{ id: string; name: string; labels: unknown }>(
    'select m.id, m.name, m.labels from logging_backends_matching($1, $2, $3, $4) m where m.name = $5 limit 1',
    [subject.kind, subject.type, subject.name, JSON.stringify(subject.labels), chosen.name],
  );
  const route = matched.rows[0];
  const backend = await pool.query<{ id: string; name: string; type: LogBackendType | null; spec: unknown }>(
    route === undefined
      ? `select id, name, log_backend_kind(spec) as type, spec from logging_backends where name = $1 and deleted_at is null order by created_at limit 1`
      : `select id, name, log_backend_kind(spec) as type, spec from logging_backends where id = $1 and deleted_at is null`,
    [route === undefined ? chosen.name : route.id],
  );
  const row = backend.rows[0];
  if (row === undefined) throw logErrors.selector(name === '' ? chosen.name : name, []);
  return { ...row, labels: route === undefined ? chosen.labels : stringMap(route.labels) };
}
