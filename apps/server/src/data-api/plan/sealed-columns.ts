import { AppError } from '../../platform/errors';
import { ident } from '../build-sql';
import type { Relation } from '../schema-cache';
import type { Authorize } from './plan-read';

/**
 * The tables whose JSON columns hold sealed secrets (`{"$encrypted": …}`, ADR 0041/0062), and the tables a reader must
 * be able to write to see the envelopes: the table itself, and for a copy the table it was copied from. The sealing
 * write transforms (`registerTransform`) of canaries, checks, config_scrapers and playbooks fill the first four;
 * the others copy a spec. Nobody needs the ciphertext to read a check, and whoever holds it and may write somewhere
 * could try to have the server open it there (issue #31), so only those who may write the resource get it.
 */
const SEALED_TABLES: Readonly<Record<string, { columns: readonly string[]; copiedFrom: readonly string[] }>> = {
  canaries: { columns: ['spec'], copiedFrom: [] },
  checks: { columns: ['spec'], copiedFrom: [] },
  config_scrapers: { columns: ['spec'], copiedFrom: [] },
  playbooks: { columns: ['spec'], copiedFrom: [] },
  // A run keeps the spec it was requested with (migration 0091).
  playbook_runs: { columns: ['spec'], copiedFrom: ['playbooks'] },
  // On an agent, a check status waits here with its check's spec until it is pushed (migration 0097).
  agent_outbox: { columns: ['payload'], copiedFrom: ['checks'] },
};

/** The SQL function of migration 0113 that empties every envelope of a json or jsonb value. */
const REDACT_FUNCTION = 'public.redact_secret_envelopes';

const JSON_TYPES: ReadonlySet<string> = new Set(['json', 'jsonb']);

/** Authorize throws for a refusal; here a refusal is an answer, not an error. */
function mayWrite(authorize: Authorize, table: string): boolean {
  try {
    authorize(table, 'write');
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}

function hidesEnvelopesOf(authorize: Authorize, table: string): boolean {
  const sealed = SEALED_TABLES[table];
  if (sealed === undefined) return false;
  return ![table, ...sealed.copiedFrom].every((writable) => mayWrite(authorize, writable));
}

/**
 * The columns of `relation` this reader gets redacted. A sealed table's sealed columns; for a view over a sealed table,
 * every JSON column, since a view may copy a spec into a computed column whose origin no query tree records
 * (view-origins.ts sees only columns passed through unchanged), and emptying envelopes changes nothing else.
 */
export function redactedColumns(relation: Relation, authorize: Authorize): string[] {
  const json = [...relation.columns.values()].filter((column) => JSON_TYPES.has(column.type)).map((column) => column.name);
  if (relation.kind === 'table') {
    if (!hidesEnvelopesOf(authorize, relation.name)) return [];
    const sealed = SEALED_TABLES[relation.name]?.columns ?? [];
    return json.filter((column) => sealed.includes(column));
  }
  return relation.reads.some((table) => hidesEnvelopesOf(authorize, table)) ? json : [];
}

/**
 * The FROM item to read `relation`'s rows from: `inner` itself, or a subquery over it that passes every column through
 * and the redacted ones through the redaction. Every later reference (select, JSON path, cast, filter, order, embed
 * join) then sees the redacted value; PostgreSQL pulls the subquery up, so other columns keep their indexes.
 */
export function readSource(inner: string, relation: Relation, redacted: readonly string[]): string {
  if (redacted.length === 0) return inner;
  const columns = [...relation.columns.keys()].map((name) =>
    redacted.includes(name) ? `${REDACT_FUNCTION}(_s.${ident(name)}) as ${ident(name)}` : `_s.${ident(name)}`,
  );
  return `(select ${columns.join(', ')} from ${inner} _s)`;
}
