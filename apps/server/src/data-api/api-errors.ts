import { AppError, fromGuardViolation, fromUniqueViolation, type UniqueKey } from '../platform/errors';
import { isSecretColumn } from './resource-map';

/**
 * The data API speaks PostgREST's error dialect: PGRSTxxx codes for request and schema-cache problems, and the
 * database's SQLSTATE for everything the database refuses, each with PostgREST's HTTP status.
 */
export const apiErrors = {
  parse: (message: string, details?: string) =>
    new AppError(400, 'PGRST100', message, details ?? null, 'See docs/query-grammar.md for the supported grammar'),
  invalidBody: (details: string) => new AppError(400, 'PGRST102', 'Empty or invalid json', details),
  invalidRange: (details: string) => new AppError(416, 'PGRST103', 'Requested range not satisfiable', details),
  schemaNotAllowed: (schema: string) =>
    new AppError(406, 'PGRST106', `The schema must be one of the following: public`, `Requested schema: ${schema}`),
  unsupportedMediaType: (type: string) => new AppError(415, 'PGRST107', `Content-Type not acceptable: ${type}`),
  filterNotEmbedded: (path: string) =>
    new AppError(
      400,
      'PGRST108',
      `'${path}' is not an embedded resource in this request`,
      null,
      `Verify that '${path}' is included in the 'select' query parameter.`,
    ),
  relatedOrderNotToOne: (parent: string, child: string) =>
    new AppError(400, 'PGRST118', `A related order on '${child}' is not possible`, `'${parent}' and '${child}' do not form a many-to-one or one-to-one relationship`),
  singular: (rows: number) =>
    new AppError(406, 'PGRST116', 'JSON object requested, multiple (or no) rows returned', `The result contains ${rows} rows`),
  notAcceptable: (accept: string) => new AppError(406, 'PGRST107', `None of these media types are available: ${accept}`),
  embedFilterOperator: () =>
    new AppError(400, 'PGRST120', 'Bad operator on the embedded resource', 'Only is null or not is null filters are allowed on embedded resources'),
  noRelationship: (parent: string, child: string) =>
    new AppError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent}' and '${child}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent}' and '${child}' in the schema 'public', but no matches were found.`,
      'If a new foreign key between these entities was created in the database, try reloading the schema cache.',
    ),
  ambiguousRelationship: (parent: string, child: string, candidates: string[]) =>
    new AppError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${parent}' and '${child}'`,
      candidates.join('; '),
      `Try changing '${child}' to one of the following: ${candidates.map((c) => `'${child}!${c}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
    ),
  functionNotFound: (name: string, args: string[]) =>
    new AppError(
      404,
      'PGRST202',
      `Could not find the function public.${name}(${args.join(', ')}) in the schema cache`,
      null,
      'If a new function was created in the database with this name and parameters, try reloading the schema cache.',
    ),
  columnNotFound: (table: string, column: string) =>
    new AppError(400, 'PGRST204', `Could not find the '${column}' column of '${table}' in the schema cache`),
  tableNotFound: (table: string) =>
    new AppError(
      404,
      'PGRST205',
      `Could not find the table 'public.${table}' in the schema cache`,
      null,
      'If a new table was created in the database, try reloading the schema cache.',
    ),
  undefinedColumn: (table: string, column: string) => new AppError(400, '42703', `column ${table}.${column} does not exist`),
  permissionDenied: (kind: 'table' | 'function', name: string, action: 'read' | 'write') =>
    new AppError(
      403,
      '42501',
      `permission denied for ${kind} ${name}`,
      `Your roles do not allow ${action} access to '${name}'`,
      'Ask an administrator for a role that allows it',
    ),
  methodNotAllowed: (method: string) => new AppError(405, 'PGRST117', `Unsupported HTTP method: ${method}`),
  notWritable: (relation: string, kind: 'table' | 'view', method: string, allowed: string[]) =>
    new AppError(
      405,
      'PGRST117',
      `The ${kind} '${relation}' cannot take ${method}: it is read-only`,
      `'${relation}' allows ${allowed.join(', ')}`,
      kind === 'view' ? 'A view that groups, joins or computes its rows cannot be written; write to the table it reads from' : null,
    ),
  guardedWrite: (table: string, resource: string) =>
    new AppError(
      403,
      '42501',
      `permission denied for table ${table}`,
      table === 'people'
        ? `Creating or deleting a person, or changing anything but their name, avatar and team, needs write access to '${resource}'`
        : `Writing '${table}' needs write access to '${resource}'`,
      'Ask an administrator for a role that allows it',
    ),
  missingFilter: (verb: 'UPDATE' | 'DELETE') =>
    new AppError(400, '21000', `${verb} requires a WHERE clause`, null, 'Add a filter such as ?id=eq.{id} to the query string'),
  noPrimaryKey: (table: string) =>
    new AppError(400, 'PGRST100', `'${table}' has no primary key; name the conflict columns with on_conflict`),
  uriTooLong: () => new AppError(414, 'PGRST100', 'The request URI is too long', 'The limit is 8192 bytes'),
  tooDeep: (limit: number) => new AppError(400, 'PGRST100', `Embedding is nested too deeply`, `The limit is ${limit} levels`),
  listTooLong: (limit: number) => new AppError(400, 'PGRST100', `A list holds too many items`, `The limit is ${limit} items`),
} as const;

interface DatabaseErrorFields {
  code: string;
  message: string;
  detail?: string | undefined;
  hint?: string | undefined;
  position?: string | undefined;
  routine?: string | undefined;
}

function isDatabaseError(error: unknown): error is DatabaseErrorFields {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof message === 'string';
}

/**
 * to_tsquery parses the client's fts value at run time and reports a bad one with the same SQLSTATE as a malformed
 * statement. The statement's own syntax errors come from the SQL parser and point at a position in its text; an error
 * without one is about a value, which is the client's to fix.
 */
function isValueSyntaxError(error: DatabaseErrorFields): boolean {
  return error.position === undefined && !(error.routine ?? '').endsWith('yyerror');
}

/** PostgREST's SQLSTATE → HTTP status table (docs/references/errors.rst, "HTTP Status Codes"). */
export function statusForSqlState(code: string): number {
  if (code === '23503' || code === '23505') return 409;
  if (code === '25006') return 405;
  if (code === '42883' || code === '42P01') return 404;
  if (code === '42P17') return 500;
  if (code === '42501') return 403;
  if (code === 'P0001') return 400;
  if (code === '53400') return 500;
  // A timeout says the database is busy or the request asks too much, not that the server broke: the caller may retry
  // or narrow it. An index row too large is the value's fault (text-limits.ts keeps data-API writes under it).
  if (code === '57014') return 503;
  if (code === '54000') return 400;
  const klass = code.slice(0, 2);
  switch (klass) {
    case '08':
    case '53':
      return 503;
    case '0L':
    case '0P':
    case '28':
      return 403;
    case '09':
    case '25':
    case '2D':
    case '38':
    case '39':
    case '3B':
    case '40':
    case '54':
    case '55':
    case '57':
    case '58':
    case 'F0':
    case 'HV':
    case 'P0':
    case 'XX':
      return 500;
    default:
      return 400;
  }
}

function namesSecretColumn(text: string): boolean {
  return (text.match(/[A-Za-z_][A-Za-z0-9_$]*/g) ?? []).some(isSecretColumn);
}

/**
 * PostgreSQL's detail of a constraint violation can quote stored values: `Failing row contains (…)` dumps the whole
 * row, hidden columns included (a hash, the start of an encrypted password), and `Key (col)=(value)` quotes a key,
 * which may be a hidden column. The first is always dropped, the second when a hidden column is part of the key.
 */
function scrubbedDetail(detail: string | undefined): string | null {
  if (detail === undefined || detail === '') return null;
  if (/failing row contains/i.test(detail)) return null;
  for (const key of detail.matchAll(/Key \((.*?)\)=\(/g)) {
    if (namesSecretColumn(key[1] ?? '')) return null;
  }
  return detail;
}

/** A not-null or check violation names its column; a hidden one stays unnamed. */
function scrubbedMessage(error: DatabaseErrorFields): string {
  const quoted = [...error.message.matchAll(/"([^"]*)"/g)].map((match) => match[1] ?? '');
  return quoted.some(isSecretColumn) ? 'The row violates a constraint on a column that is not exposed' : error.message;
}

/**
 * Turns a database error into PostgREST's body. A unique violation gets a sentence naming the taken key, from the
 * schema cache's index columns when `uniqueKeyOf` is given. Other messages and details come from PostgreSQL's own
 * wording (they name values, columns and constraints, never the statement), scrubbed of stored values the caller may
 * not see; a syntax error would mean our generated SQL is wrong, so it is reported as an internal error without its
 * text, unless it is a client's full-text query that does not parse.
 */
export function fromDatabaseError(error: unknown, uniqueKeyOf?: (index: string) => UniqueKey | null): AppError | null {
  if (!isDatabaseError(error)) return null;
  const guard = fromGuardViolation(error);
  if (guard !== null) return guard;
  const unique = fromUniqueViolation(error, uniqueKeyOf);
  if (unique !== null) {
    const details = unique.details === null ? null : scrubbedDetail(error.detail);
    return new AppError(unique.statusCode, unique.code, unique.message, details, unique.hint);
  }
  if (error.code === '42601' && !isValueSyntaxError(error)) return new AppError(500, 'PGRSTX00', 'The query could not be built', null, null);
  if (error.code === '57014') {
    return new AppError(503, error.code, 'canceling statement due to statement timeout', null, 'Narrow the request (a filter, a smaller limit) or try again');
  }
  if (error.code === '54000') return new AppError(400, error.code, 'A value is too large to be stored in an index', null, 'See docs/text-limits.md');
  const status = statusForSqlState(error.code);
  if (status >= 500) return new AppError(status, error.code, 'The database could not answer the request', null, null);
  return new AppError(status, error.code, scrubbedMessage(error), scrubbedDetail(error.detail), error.hint ?? null);
}
