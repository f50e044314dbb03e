import type { ErrorBodyShape } from '@opsdeck/shared';
import { isSecretColumn } from './secret-columns';

/**
 * Every error the API returns is one of these coded factories, so clients can rely on `code` and tests can assert
 * it. The body shape is PostgREST's `{code, message, details, hint}` for every route, not just the data API: the
 * shared `ErrorBodyShape`, which the OpenAPI document and the web read too.
 */
export class AppError extends Error {
  readonly code: string;
  readonly statusCode: number;
  readonly details: string | null;
  readonly hint: string | null;

  constructor(statusCode: number, code: string, message: string, details?: string | null, hint?: string | null) {
    super(message);
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.code = code;
    this.details = details ?? null;
    this.hint = hint ?? null;
  }

  toBody(): ErrorBodyShape {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

export const errors = {
  unauthenticated: () => new AppError(401, 'OD401', 'Authentication required', null, 'Sign in and send the session cookie'),
  forbidden: (what: string) =>
    new AppError(403, 'OD403', `You do not have permission to ${what}`, null, 'Ask an administrator for a role that allows it'),
  notFound: (what: string) => new AppError(404, 'OD404', `${what} not found`),
  routeNotFound: (method: string, url: string) =>
    new AppError(404, 'OD_ROUTE_NOT_FOUND', `Route ${method} ${url} not found`, null, 'See /api/openapi.json for the routes this server answers'),
  badRequest: (message: string, details?: string, hint?: string) => new AppError(400, 'OD400', message, details, hint),
  validation: (details: string) => new AppError(400, 'OD_VALIDATION', 'The request is not valid', details),
  nameTaken: (kind: string, name: string, scope?: string) =>
    new AppError(
      409,
      'OD_NAME_TAKEN',
      `${withArticle(kind)} named '${name}' already exists${scope === undefined ? '' : ` ${scope}`}`,
      null,
      `Choose another name, or edit the existing ${kind}`,
    ),
  internal: () => new AppError(500, 'OD500', 'Internal server error'),
  connectionTestFailed: (message: string) => new AppError(400, 'OD_CONNECTION_TEST_FAILED', message),
  connectionTestUnsupported: () => new AppError(501, 'OD_CONNECTION_TEST_UNSUPPORTED', 'We currently do not support testing this connection type'),
  invalidCanarySpec: (details: string) => new AppError(400, 'OD_CANARY_SPEC', 'The canary spec is not valid', details),
  checkTypeNotRun: (types: string, runnable: readonly string[], details: string) =>
    new AppError(
      400,
      'OD_CHECK_TYPE_NOT_RUN',
      `This server does not run ${types} checks; it runs ${runnable.join(', ')}`,
      details,
      'Remove those checks or run them with canary-checker; docs/compatibility.md lists what runs here',
    ),
  checkFieldNotRun: (fields: string, details: string) =>
    new AppError(
      400,
      'OD_CHECK_FIELD_NOT_RUN',
      `This server does not run ${fields}`,
      details,
      'Remove the fields named in details; each says what this server runs instead (docs/compatibility.md)',
    ),
  invalidScraperSpec: (field: string, problem: string) =>
    new AppError(400, 'OD_SCRAPER_SPEC', `The scraper spec is not valid: ${field} ${problem}`, field, 'Fix the field named in details and save again'),
  scraperKind: (field: string, kind: string, runnable: readonly string[]) =>
    new AppError(
      400,
      'OD_SCRAPER_KIND',
      `This server does not run ${kind} scrapers; it runs ${runnable.join(', ')}`,
      field,
      `Remove the ${kind} sources, or run them with a Mission Control agent`,
    ),
  topologySpec: (field: string, problem: string, hint = 'Fix the field named in details and save again') =>
    new AppError(400, 'OD_TOPOLOGY_SPEC', `The topology spec is not valid: ${field} ${problem}`, field, hint),
  topologyFieldNotRun: (field: string, problem: string, hint: string) =>
    new AppError(400, 'OD_TOPOLOGY_FIELD_NOT_RUN', `This server does not run ${field}: it ${problem}`, field, hint),
  invalidDefinitionOfDoneScript: (message: string, details: string | null) =>
    new AppError(400, 'OD_DOD_SCRIPT', message, details, 'Scripts are CEL expressions returning a bool, e.g. status == healthy'),
  agentNameReadOnly: () =>
    new AppError(400, 'OD_AGENT_NAME_READ_ONLY', 'The name of an agent cannot be changed', null, 'Create a new agent to use another name'),
  invalidAgentSettings: (details: string) => new AppError(400, 'OD_AGENT_SETTINGS', 'The agent settings are not valid', details),
  undecryptableSpecSecret: (path: string) =>
    new AppError(400, 'OD_SPEC_SECRET', 'A secret in the spec cannot be decrypted; enter it again', path, 'Replace the {"$encrypted": …} value with the secret itself'),
  passwordInUrl: (field: string) =>
    new AppError(400, 'OD_URL_PASSWORD', `Put the password of ${field} in a connection or in the password field, not in the URL`, field),
  placeholderInUrl: (field: string, rule: string) =>
    new AppError(400, 'OD_URL_PLACEHOLDER', `${field} names a credential where it would not be filled in: ${rule}`, field, 'Give the credentials in the username and password fields (or authentication), or in a connection'),
  secretInUrl: (field: string, parameter: string) =>
    new AppError(
      400,
      'OD_URL_SECRET',
      `The query parameter '${parameter}' of ${field} carries a credential, which a URL would show to every reader`,
      field,
      'Send it in a header (header values are sealed), or keep it in a connection',
    ),
  secretNeedsOneRow: (table: string) =>
    new AppError(
      400,
      'OD_SECRET_SCOPE',
      `A ${table} spec that holds secrets is written to one row at a time, named by its id`,
      null,
      'Filter the PATCH with id=eq.<id>, or give the id in each row of an upsert; secrets are sealed for the row that holds them',
    ),
  invalidValue: (databaseMessage: string) =>
    new AppError(400, 'OD_INVALID_VALUE', 'A value in the request is not valid', databaseMessage, 'Check the identifiers, numbers, dates and text sent'),
  crossSiteRequest: (reason: string) =>
    new AppError(
      403,
      'OD_CSRF',
      'A security violation was detected and the request was refused to protect you from cross-site request forgery',
      reason,
      'Send writes from the console itself, as JSON or with an X-Requested-With header; behind a TLS proxy set OPSDECK_TRUST_PROXY=true',
    ),
  /** Exec checks by default; playbooks name their own subject and alternative. */
  execPermissionRequired: (
    details: string,
    message = 'Exec checks need the execute permission',
    hint = 'Only administrators may create, change or remove exec checks; ask one to make this change',
  ) => new AppError(403, 'OD_EXEC_FORBIDDEN', message, details, hint),
  lastAdmin: () =>
    new AppError(409, 'OD_LAST_ADMIN', 'The last administrator cannot be removed or disabled', null, 'Give another active person the admin role first'),
  jsonTooDeep: (limit: number) =>
    new AppError(400, 'OD_JSON_DEPTH', 'The JSON body is nested too deeply', `The limit is ${limit} levels of arrays and objects`),
  valueFromOrigin: (field: string, connection: string, origin: string) =>
    new AppError(
      400,
      'OD_VALUE_FROM_ORIGIN',
      `${field} names the connection '${connection}', whose values go only to its origin (${origin}); this check goes elsewhere`,
      field,
      "Point the check at the connection's scheme, host and port, or name a connection for the check's own address",
    ),
  connectionOrigin: (field: string) =>
    new AppError(
      400,
      'OD_CONNECTION_ORIGIN',
      `${field} leaves the origin of the connection the check names, whose credentials are sent nowhere else`,
      field,
      "Point it at the connection's own scheme, host and port, or leave it out so the connection's URL is used",
    ),
  ownDatabase: (field: string) =>
    new AppError(400, 'OD_OWN_DATABASE', `${field} names Opsdeck's own database, which no check or connection may query`, field, 'Give the check a database of its own'),
} as const;

/**
 * PostgreSQL's data exceptions (class 22: a text that is not a uuid, a NUL byte, a number out of range) as the
 * client's 400. They reach the error handler only from values a route's schema let through, and their messages quote
 * the value, never the statement.
 */
export function fromDataException(error: unknown): AppError | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, message, severity } = error as { code?: unknown; message?: unknown; severity?: unknown };
  if (typeof code !== 'string' || !/^22[0-9A-Z]{3}$/.test(code) || typeof message !== 'string' || typeof severity !== 'string') return null;
  return errors.invalidValue(message);
}

/** SQLSTATE the people guards (migration 0061) raise when a change would leave no active administrator. */
export const LAST_ADMIN_SQLSTATE = 'ODA01';

/** SQLSTATE the notification guard (migration 0099) raises when the console changes a notification another source owns. */
export const NOTIFICATION_SOURCE_SQLSTATE = 'ODN01';

/** SQLSTATE the playbook approver resolution (migration 0110) raises when a spec's approval names nobody, or a shared team name. */
export const PLAYBOOK_APPROVER_SQLSTATE = 'ODP01';

/**
 * Guards whose trigger words the whole refusal (message, detail naming the row, hint): their SQLSTATE and the status
 * and code the API answers (migration 0109: admin-only properties, retention ages, maintenance job schedules; migration 0116: job history and
 * queued events).
 */
const WORDED_GUARDS: Readonly<Record<string, readonly [number, string]>> = {
  ODS01: [403, 'OD_PROPERTY_ADMIN_ONLY'],
  ODS02: [400, 'OD_RETENTION_DAYS'],
  ODS03: [403, 'OD_MAINTENANCE_JOB_ADMIN_ONLY'],
  ODS04: [403, 'OD_RECORD_ADMIN_ONLY'],
  // Migration 0118: a console edit of a resource applied from a manifest (ADR 0074).
  ODS05: [400, 'OD_APPLIED_READ_ONLY'],
};

const textOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The database's own guards, raised from triggers whatever route wrote, as the coded errors they stand for. */
export function fromGuardViolation(error: unknown): AppError | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === LAST_ADMIN_SQLSTATE) return errors.lastAdmin();
  const worded = typeof code === 'string' ? WORDED_GUARDS[code] : undefined;
  if (worded !== undefined && typeof message === 'string') {
    const { detail, hint } = error as { detail?: unknown; hint?: unknown };
    return new AppError(worded[0], worded[1], message, textOrNull(detail), textOrNull(hint));
  }
  if (code === PLAYBOOK_APPROVER_SQLSTATE) {
    const { detail, hint } = error as { detail?: unknown; hint?: unknown };
    return new AppError(
      400,
      'OD_PLAYBOOK_APPROVER',
      typeof message === 'string' ? message : 'The playbook approval names an approver that does not exist',
      typeof detail === 'string' ? detail : 'spec.approval.approvers',
      typeof hint === 'string' ? hint : 'Name approvers by the id of an existing person or team',
    );
  }
  if (code === NOTIFICATION_SOURCE_SQLSTATE) {
    return new AppError(
      400,
      'OD_NOTIFICATION_SOURCE',
      typeof message === 'string' ? message : 'This notification comes from another source and cannot be changed here',
      'source',
      'Change it where it is defined, or create a new notification from the UI',
    );
  }
  return null;
}

/** The table and key columns of a unique index, when the caller knows them better than the error's detail says. */
export interface UniqueKey {
  table: string;
  /** Column names, or expression text for an expression column (`lower(email)`). */
  columns: string[];
}

/** Tables whose rows people know by another name than the table's. */
const ROW_LABELS: Readonly<Record<string, string>> = {
  properties: 'feature flag',
  people: 'person',
  hypotheses: 'hypothesis',
};

function rowLabel(table: string): string {
  const label = ROW_LABELS[table];
  if (label !== undefined) return label;
  const words = table.split('_');
  const last = words.pop() ?? '';
  let singular = last;
  if (/ies$/.test(last)) singular = `${last.slice(0, -3)}y`;
  else if (/(ss|x|ch|sh|us)es$/.test(last)) singular = last.slice(0, -2);
  else if (/[^su]s$/.test(last) && !/is$/.test(last)) singular = last.slice(0, -1);
  return [...words, singular].join(' ');
}

function withArticle(label: string): string {
  return `${/^[aeiou]/i.test(label) ? 'An' : 'A'} ${label}`;
}

/** The columns an index key reads: a column name as is, an expression's column references (`lower(email)` → email). */
function keyColumns(parts: string[]): string[] | null {
  const columns: string[] = [];
  for (const part of parts) {
    const trimmed = part.trim();
    const quoted = /^"((?:[^"]|"")+)"$/.exec(trimmed);
    if (quoted !== null) columns.push((quoted[1] ?? '').replaceAll('""', '"'));
    else if (/^[A-Za-z_][A-Za-z0-9_$]*$/.test(trimmed)) columns.push(trimmed);
    else {
      // Identifiers that are neither a function being called nor a type after `::`.
      const references = [...trimmed.matchAll(/(?<!::\s*)\b([A-Za-z_][A-Za-z0-9_$]*)\b(?!\s*\()/g)].map((match) => match[1] ?? '');
      if (references.length === 0) return null;
      columns.push(...references);
    }
  }
  return [...new Set(columns)];
}

/** Splits `Key (a, lower(b))=(…)`'s column list at its top-level commas. */
function detailKeyParts(detail: string): string[] | null {
  const match = /^Key \((.*?)\)=\(/s.exec(detail);
  if (match === null) return null;
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of match[1] ?? '') {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function listed(columns: string[]): string {
  const words = columns.map((column) => column.replaceAll('_', ' '));
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1] ?? ''}`;
}

/**
 * A unique violation (23505) as a 409 naming what is taken, in words rather than the index's name: 'A feature flag
 * named "x" already exists', or 'A connection with this namespace and name already exists'. The code stays the
 * SQLSTATE, as PostgREST reports it. A key on a column the API hides (a token hash) is neither named nor quoted.
 */
export function fromUniqueViolation(error: unknown, keyOf?: (index: string) => UniqueKey | null): AppError | null {
  if (typeof error !== 'object' || error === null) return null;
  const fields = error as { code?: unknown; constraint?: unknown; table?: unknown; detail?: unknown };
  if (fields.code !== '23505') return null;
  const detail = typeof fields.detail === 'string' ? fields.detail : '';
  const known = typeof fields.constraint === 'string' && keyOf !== undefined ? keyOf(fields.constraint) : null;
  const table = known?.table ?? (typeof fields.table === 'string' ? fields.table : null);
  const detailParts = detailKeyParts(detail);
  const parts = known?.columns ?? detailParts;
  const columns = parts === null ? null : keyColumns(parts);
  const label = table === null ? 'row' : rowLabel(table);
  const detailColumns = detailParts === null ? [] : (keyColumns(detailParts) ?? []);
  const hidden = columns === null || [...columns, ...detailColumns].some(isSecretColumn);
  if (hidden) return new AppError(409, '23505', `${withArticle(label)} with these values already exists`, null, null);
  const hint = `Choose another ${listed(columns)}, or change the existing ${label}`;
  const named = columns.length === 1 && columns[0] === 'name' ? /^Key \(name\)=\((.*)\) already exists\.?$/s.exec(detail) : null;
  if (named !== null) return new AppError(409, '23505', `${withArticle(label)} named "${named[1] ?? ''}" already exists`, detail, hint);
  return new AppError(409, '23505', `${withArticle(label)} with this ${listed(columns)} already exists`, detail === '' ? null : detail, hint);
}
