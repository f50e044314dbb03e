import { createHmac, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { can, type ErrorBodyShape } from '@opsdeck/shared';
import { resourceFor } from '../../data-api/resource-map';
import { DB_WRITTEN_EVENT, writeHooksFor } from '../../data-api/write-hooks';
import type { Database } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { AppError, fromGuardViolation } from '../../platform/errors';
import type { EventBus } from '../../platform/event-bus';
import type { Principal } from '../../platform/principal';
import { syncCanaryChecks } from '../health';
import { connectionColumns, refuseOwnDatabaseUrl, validateConnectionForType } from '../connections';
import { DELIVERABLE_NOTIFICATION_TYPES } from '../notification-providers';
import { checkNotificationConnections, validateNotificationRows } from '../notifications';
import { APPLY_KINDS, isRefused, readApplyFiles, type ApplyDocument, type ApplyFile, type ApplyKind, type RefusedDocument } from './apply-documents';
import { connectionFields } from './connection-document';
import { NOTIFICATION_FIELDS, notificationColumns } from './notification-document';
import { applyErrors, locationOf } from './apply-errors';
import { columnsOf, findExisting, recordDigest, rowsOfSource, softDelete, writeRow } from './apply-store';

export type ApplyAction = 'created' | 'updated' | 'unchanged' | 'refused' | 'pruned';

export interface DocumentOutcome {
  file: string | null;
  index: number | null;
  kind: string;
  namespace: string;
  name: string;
  action: ApplyAction;
  error: ErrorBodyShape | null;
}

export interface ApplyReport {
  source: string;
  dryRun: boolean;
  documents: DocumentOutcome[];
}

export interface ApplyRequest {
  files: readonly ApplyFile[];
  source: string;
  dryRun: boolean;
  prune: boolean;
  principal: Principal | null;
}

export interface ApplyDeps {
  db: Database;
  bus: EventBus;
  secretKey: Buffer;
}

/** A document judged by its kind's save rules, ready to write (or already as applied). */
interface Planned {
  outcome: DocumentOutcome;
  table: string;
  row: Record<string, unknown> | null;
  digest: string;
  update: boolean;
}

const keyOf = (kind: string, namespace: string, name: string) => `${kind} ${namespace}/${name}`;

function digestOf(secretKey: Buffer, document: ApplyDocument): string {
  const canonical = JSON.stringify(document.raw, (_key, value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
  return createHmac('sha256', secretKey).update('opsdeck-apply\0').update(canonical).digest('hex');
}

function outcomeOf(document: ApplyDocument, action: ApplyAction, error: AppError | null = null): DocumentOutcome {
  return { file: document.file, index: document.index, kind: document.kind.kind, namespace: document.namespace, name: document.name, action, error: error?.toBody() ?? null };
}

/** The person an apply acts as; none for the server's own GitOps reconcile. */
function personOf(principal: Principal | null): string | null {
  const person = principal?.personId ?? '';
  return person === '' ? null : person;
}

function canWrite(principal: Principal | null, table: string): boolean {
  const resource = resourceFor(table);
  return resource !== null && can(principal?.roles ?? [], resource, 'write');
}

/**
 * Judges one document as its kind's own save path would (ADR 0074): the write permission on its table, the rules the
 * data API runs on that table (write-hooks: spec rules, exec and other admin-only rules, sealed secrets), and that an
 * existing row of that name came from this same source.
 */
async function plan(deps: ApplyDeps, request: ApplyRequest, document: ApplyDocument, planned: ReadonlyMap<string, string>): Promise<Planned> {
  const { kind } = document;
  const location = locationOf(document.file, document.index, null);
  const digest = digestOf(deps.secretKey, document);
  if (!canWrite(request.principal, kind.table)) throw applyErrors.forbidden(location, kind.kind);
  const { pool } = deps.db;
  const existing = await findExisting(pool, kind, document.namespace, document.name);
  if (existing !== null && existing.source !== request.source) {
    throw applyErrors.sourceConflict(location, keyOf(kind.kind, document.namespace, document.name), existing.source);
  }
  if (existing !== null && existing.digest === digest) return { outcome: outcomeOf(document, 'unchanged'), table: kind.table, row: null, digest, update: true };
  const id = existing?.id ?? randomUUID();
  const hooks = writeHooksFor(deps.db);
  try {
    // The source is set after the save rules: they judge what a console write may be, and refuse a foreign source.
    const given: Record<string, unknown> = { id, name: document.name, namespace: document.namespace, ...(await columnsOfKind(deps, document)) };
    if (kind.labels) given.labels = document.labels;
    if (kind.schedule) given.schedule = typeof document.spec.schedule === 'string' ? document.spec.schedule : null;
    if (kind.stored === 'notification') {
      validateNotificationRows([given], 'POST');
      await checkNotificationConnections(pool, DELIVERABLE_NOTIFICATION_TYPES, [given], planned);
    } else {
      await hooks.check(kind.table, [given], 'POST');
    }
    const [stored = given] = await hooks.apply(kind.table, [given], 'POST', request.principal, { upsert: false, id });
    const columns = await columnsOf(pool, kind.table);
    const row: Record<string, unknown> = { ...Object.fromEntries(Object.entries(stored).filter(([column]) => columns.has(column))), source: request.source };
    // Whoever applied first created it; a later apply changes what it defines, not who made it.
    if (existing === null) row.created_by = personOf(request.principal);
    else delete row.created_by;
    return { outcome: outcomeOf(document, existing === null ? 'created' : 'updated'), table: kind.table, row, digest, update: existing !== null };
  } catch (error) {
    if (error instanceof AppError) throw applyErrors.refused(location, documentField(kind, error));
    throw error;
  }
}

/** The columns a document is written as: its spec whole, or a Notification's or Connection's fields mapped. */
async function columnsOfKind(deps: ApplyDeps, document: ApplyDocument): Promise<Record<string, unknown>> {
  // The field alone: the refusal is placed in its file and document where the plan catches it.
  const at = (field: string) => field;
  if (document.kind.stored === 'notification') return notificationColumns(deps.db.pool, document, at);
  if (document.kind.stored === 'connection') {
    const fields = connectionFields(document, at);
    validateConnectionForType(fields);
    refuseOwnDatabaseUrl(deps.db.pool, fields);
    return connectionColumns(deps.secretKey, fields);
  }
  return { spec: document.spec };
}

/** A notification save rule names a column; the apply names where that sits in the document. */
function documentField(kind: ApplyKind, error: AppError): AppError {
  if (kind.stored !== 'notification' || error.details === null) return error;
  const field = NOTIFICATION_FIELDS[error.details];
  return field === undefined ? error : new AppError(error.statusCode, error.code, error.message, field, error.hint);
}

/** The connections the documents define (`connection://namespace/name` → type), for notifications of the same apply. */
function plannedConnections(documents: ReadonlyArray<ApplyDocument | RefusedDocument>): Map<string, string> {
  const planned = new Map<string, string>();
  for (const document of documents) {
    if (isRefused(document) || document.kind.stored !== 'connection') continue;
    try {
      planned.set(`connection://${document.namespace}/${document.name}`, connectionFields(document, () => '').type);
    } catch (error) {
      // The document's own plan refuses it, naming the field.
      if (!(error instanceof AppError)) throw error;
    }
  }
  return planned;
}

/** Rows of this source the files no longer hold, for the kinds the caller may write. */
async function prunable(deps: ApplyDeps, request: ApplyRequest, documents: readonly ApplyDocument[]): Promise<Array<{ kind: ApplyKind; id: string; outcome: DocumentOutcome }>> {
  const held = new Set(documents.map((d) => keyOf(d.kind.kind, d.namespace, d.name)));
  const found = await Promise.all(
    APPLY_KINDS.map(async (kind) => {
      const rows = await rowsOfSource(deps.db.pool, kind, request.source);
      return rows
        .filter((row) => !held.has(keyOf(kind.kind, row.namespace, row.name)))
        .map((row) => {
          const outcome: DocumentOutcome = { file: null, index: null, kind: kind.kind, namespace: row.namespace, name: row.name, action: 'pruned', error: null };
          if (!canWrite(request.principal, kind.table)) throw applyErrors.forbidden(`prune of ${keyOf(kind.kind, row.namespace, row.name)}`, kind.kind);
          return { kind, id: row.id, outcome };
        });
    }),
  );
  return found.flat();
}

function refusedOutcome(file: string | null, index: number, error: AppError): DocumentOutcome {
  return { file, index, kind: '', namespace: '', name: '', action: 'refused', error: error.toBody() };
}

/** Writes what was planned in one transaction, as the caller (the database's exec guards see who writes). */
async function write(client: pg.PoolClient, request: ApplyRequest, planned: readonly Planned[], prune: ReadonlyArray<{ kind: ApplyKind; id: string }>): Promise<void> {
  // opsdeck.apply_write lets this transaction change rows applied before (migration 0118 refuses every other writer).
  await client.query(`select set_config('opsdeck.person_id', $1, true), set_config('opsdeck.roles', $2, true), set_config('opsdeck.apply_write', 'on', true)`, [
    personOf(request.principal) ?? '',
    (request.principal?.roles ?? []).join(','),
  ]);
  for (const item of planned) {
    if (item.row === null) continue;
    const location = locationOf(item.outcome.file, item.outcome.index ?? 0, null);
    try {
      await writeRow(client, item.table, await columnsOf(client, item.table), item.row, item.update);
    } catch (error) {
      const guarded = fromGuardViolation(error);
      if (guarded !== null) throw applyErrors.refused(location, guarded);
      if (isInsufficientPrivilege(error)) throw applyErrors.refused(location, new AppError(403, 'OD403', (error as Error).message, null, null));
      throw error;
    }
    const id = String(item.row.id);
    await recordDigest(client, item.table, id, request.source, item.digest);
    if (item.table === 'canaries') await syncCanaryChecks(client, id, { reschedule: true });
  }
  for (const { kind, id } of prune) {
    await softDelete(client, kind.table, id);
    if (kind.table === 'canaries') await syncCanaryChecks(client, id, { reschedule: false });
  }
}

function isInsufficientPrivilege(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '42501';
}

/**
 * Applies every document of the files as one change (ADR 0074): each is judged first (a refusal of any refuses the
 * whole request, naming file, document index and field), then all are written in one transaction. A dry run judges and
 * reports, refusals included per document, and writes nothing.
 */
export async function applyResources(deps: ApplyDeps, request: ApplyRequest): Promise<ApplyReport> {
  const read = readApplyFiles(request.files);
  const connections = plannedConnections(read);
  const documents: ApplyDocument[] = [];
  const outcomes: DocumentOutcome[] = [];
  const planned: Planned[] = [];
  const seen = new Set<string>();
  const refuse = (file: string | null, index: number, error: AppError): void => {
    if (!request.dryRun) throw error;
    outcomes.push(refusedOutcome(file, index, error));
  };
  for (const item of read) {
    if (isRefused(item)) {
      refuse(item.file, item.index, item.error);
      continue;
    }
    const key = keyOf(item.kind.kind, item.namespace, item.name);
    if (seen.has(key)) {
      refuse(item.file, item.index, applyErrors.duplicate(locationOf(item.file, item.index, 'metadata.name'), key));
      continue;
    }
    seen.add(key);
    documents.push(item);
    try {
      const judged = await plan(deps, request, item, connections);
      planned.push(judged);
      outcomes.push(judged.outcome);
    } catch (error) {
      if (!(error instanceof AppError) || !request.dryRun) throw error;
      outcomes.push(outcomeOf(item, 'refused', error));
    }
  }
  const prune = request.prune ? await prunable(deps, request, documents) : [];
  outcomes.push(...prune.map((item) => item.outcome));
  if (request.dryRun) return { source: request.source, dryRun: true, documents: outcomes };
  await inTransaction(deps.db.pool, (client) => write(client, request, planned, prune));
  const tables = new Set([...planned.filter((p) => p.row !== null).map((p) => p.table), ...prune.map((p) => p.kind.table)]);
  for (const table of tables) deps.bus.publish({ name: DB_WRITTEN_EVENT, payload: { table, method: 'POST' } });
  if (tables.has('canaries')) deps.bus.publish({ name: 'canary.updated', payload: {} });
  return { source: request.source, dryRun: false, documents: outcomes };
}
