import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { can, PLAYBOOK_SPEC_SCHEMA } from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { AppError, errors } from '../../platform/errors';
import type { Principal } from '../../platform/principal';
import { registerSchemaRoute } from '../../platform/schema-route';
import { rowScopedTransform, writeHooksFor, type WriteMethod } from '../../data-api/write-hooks';
import { playbookHoldsSecrets, sealPlaybookSpec } from './playbook-secrets';
import { findWebhookPlaybook } from './playbook-webhooks';
import { parsePlaybookResource, playbookSpecRunsCode, type ParsedPlaybook } from './spec';

const TABLE = 'playbooks';
const READ = { resource: 'playbooks', action: 'read' } as const;
const NAME_HINT = 'Give the playbook a name, or paste the whole Playbook resource with metadata.name';
/** Filled from the spec when a write leaves them out, so a pasted resource shows its title on the card. */
const SPEC_COLUMNS = ['title', 'description', 'icon', 'category'] as const;

/**
 * Runs, their actions and approvals are the engine's record of what happened: they are made and moved only through
 * `/api/playbook/…` (request, cancel, approve), never written through the data API, not even by an admin.
 */
const PLAYBOOK_RUN_TABLES = ['playbook_runs', 'playbook_run_actions', 'playbook_run_approvals'] as const;

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** The coded 405 the data API answers for a relation it cannot write (PGRST117), saying where runs are made. */
function runTableReadOnly(table: string, method: string): AppError {
  return new AppError(
    405,
    'PGRST117',
    `The table '${table}' cannot take ${method}: playbook runs are read-only here`,
    `'${table}' allows GET, HEAD`,
    'Runs are requested through POST /api/playbook/run, and cancelled or approved through its cancel and approve routes',
  );
}

function parsedSpecs(rows: ReadonlyArray<Record<string, unknown>>): Array<ParsedPlaybook | null> {
  return rows.map((row) => (row.spec === undefined ? null : parsePlaybookResource(row.spec)));
}

/**
 * Spec 001 §5 and §6 for every write of playbooks: a spec with an exec action needs the execute permission (checked
 * first and on the raw value, so an invalid spec cannot slip one past it), the spec follows the save-time rules, and a
 * new playbook has a name (its own, or the pasted resource's metadata.name).
 */
export function validatePlaybookRows(rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod, principal: Principal | null): void {
  if (method === 'DELETE') return;
  if (rows.some((row) => playbookSpecRunsCode(row.spec)) && !can(principal?.roles ?? [], 'playbooks', 'execute')) {
    throw errors.execPermissionRequired(
      `${method} of a playbook with exec or sql actions`,
      'Playbooks with exec or sql actions need the execute permission',
      'Only administrators may write scripts and queries that run with the server and its stored credentials; ask one to make this change, or use http and notification actions',
    );
  }
  const specs = parsedSpecs(rows);
  rows.forEach((row, index) => {
    const metadataName = specs[index]?.metadata?.name;
    const needsName = method === 'POST' ? metadataName === undefined : row.name !== undefined;
    if (needsName && isBlank(row.name)) throw new AppError(400, 'OD_PLAYBOOK_SPEC', 'The playbook spec is not valid: name is required', 'name', NAME_HINT);
  });
}

/**
 * What is stored: the spec normalised as a JSON object (parsePlaybookResource), a new row's missing name and namespace
 * from the pasted resource's metadata, and title, description, icon and category from the spec when the write leaves
 * those columns out. `source` keeps its column default.
 */
export function fillPlaybookRows(rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod): Array<Record<string, unknown>> {
  if (method === 'DELETE') return [...rows];
  const specs = parsedSpecs(rows);
  return rows.map((row, index) => {
    const parsed = specs[index];
    if (parsed === null || parsed === undefined) return row;
    const filled: Record<string, unknown> = { ...row, spec: parsed.spec };
    const metadata = parsed.metadata;
    if (method === 'POST' && metadata !== null) {
      if (isBlank(row.name) && metadata.name !== undefined) filled.name = metadata.name;
      if (isBlank(row.namespace) && metadata.namespace !== undefined) filled.namespace = metadata.namespace;
    }
    for (const column of SPEC_COLUMNS) {
      const fromSpec = parsed.spec[column];
      const leftOut = method === 'POST' ? isBlank(row[column]) : row[column] === undefined;
      if (leftOut && fromSpec !== undefined) filled[column] = fromSpec;
    }
    return filled;
  });
}

function refuseRunWrites(table: string): (rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod) => void {
  return (_rows, method) => {
    throw runTableReadOnly(table, method);
  };
}

/**
 * Save-time rules for every write of playbooks through /api/db, the spec's secrets sealed for the row that holds them
 * (after it is normalised, so what is sealed is what is stored), and the refusal of every write of the run tables.
 */
export function registerPlaybookSpecHooks(context: AppContext): void {
  const hooks = writeHooksFor(context.db);
  const { secretKey } = context.config;
  hooks.register(TABLE, validatePlaybookRows);
  hooks.registerTransform(TABLE, (rows, method) => fillPlaybookRows(rows, method));
  hooks.registerTransform(
    TABLE,
    rowScopedTransform('spec', playbookHoldsSecrets, (id, spec) => sealPlaybookSpec(secretKey, id, spec), () => errors.secretNeedsOneRow('playbook')),
  );
  hooks.registerCheck(TABLE, (rows, method) => checkWebhookPaths(context.db.pool, rows, method));
  for (const table of PLAYBOOK_RUN_TABLES) hooks.register(table, refuseRunWrites(table));
}

/** The spec's webhook path; none for a spec that does not validate, which the validators refuse with their own words. */
function webhookPathOf(spec: unknown): string | undefined {
  try {
    return parsePlaybookResource(spec).spec.on?.webhook?.path;
  } catch {
    return undefined;
  }
}

/**
 * A webhook path names one playbook: a write giving another playbook's path is a coded 409 naming it. A filtered
 * update names no row id, so its own path cannot be told from another's here; the unique index of migration 0120
 * refuses a real clash then.
 */
async function checkWebhookPaths(pool: pg.Pool, rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod): Promise<void> {
  for (const row of rows) {
    if (row.spec === undefined || method === 'DELETE') continue;
    const path = webhookPathOf(row.spec);
    if (path === undefined) continue;
    const owner = await findWebhookPlaybook(pool, path);
    // An insert without an id is a new playbook; an update without one (a filtered PATCH) may be the owner itself.
    const itself = row.id === undefined ? method !== 'POST' : owner?.id === row.id;
    if (owner === null || itself) continue;
    throw new AppError(
      409,
      'OD_PLAYBOOK_WEBHOOK_TAKEN',
      `The webhook path '${path}' is already the path of another playbook`,
      'spec.on.webhook.path',
      'Choose another path: a request finds its playbook by it',
    );
  }
}

/** `GET /api/schemas/playbook-spec.schema.json`, as the topology schema is served. */
export function registerPlaybookSchemaRoute(scoped: FastifyInstance): void {
  registerSchemaRoute(scoped, {
    file: 'playbook-spec.schema.json',
    permission: READ,
    tag: 'playbooks',
    summary: 'The playbook spec (a Playbook resource or its spec) as a JSON Schema, for editors that check YAML or JSON as it is typed',
    document: PLAYBOOK_SPEC_SCHEMA,
  });
}
