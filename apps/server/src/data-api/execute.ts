import type pg from 'pg';
import { apiErrors } from './api-errors';
import type { Statement } from './build-sql';
import { LIMITS } from './limits';
import type { ValueCallPlan } from './plan/plan-call';
import type { PagePlan } from './plan/plan-page';
import type { WritePlan } from './plan/plan-write';

/**
 * Named (prepared) statements skip re-planning, which is most of the cost of a small query. Each distinct SQL shape
 * gets a name while there is room, so a flood of odd requests cannot make the server hold unbounded statements.
 * Only with PostgreSQL: the embedded PGlite socket multiplexes every connection onto one session, where a name one
 * connection prepared collides with the same name prepared by another.
 */
const MAX_PREPARED = 256;
const preparedNames = new Map<string, string>();

interface ResultRow {
  body: string | null;
  page_rows: number | string;
  total: number | string | null;
  /** Writes only: the primary keys of the rows written, as JSON text (build-write-sql.ts). */
  written_ids?: string | null;
}

/** What a page or a write answered: its JSON body, the rows in it, and the total when one was counted. */
export interface Outcome {
  body: string;
  rows: number;
  total: number | null;
}

/** A write's outcome, with the primary key of each row it touched (the audit trail records them); null without a key. */
export interface WriteOutcome extends Outcome {
  writtenIds: string[] | null;
}

function idsOf(text: string | null | undefined): string[] | null {
  if (text === null || text === undefined) return null;
  const values = JSON.parse(text) as unknown[];
  return values.map((value) => (Array.isArray(value) ? value.map(String).join(',') : String(value)));
}

/**
 * Who runs a transaction: the changelog triggers read the author from `opsdeck.person_id`, and guards that depend on
 * the caller's role (admin-only properties, migration 0109) read `opsdeck.roles`, the roles the request acts with: an
 * API token's are capped below its owner's, so the owner's stored roles would say too much.
 */
export interface TransactionOptions {
  readOnly: boolean;
  personId: string | null;
  roles: readonly string[];
}

/** Thrown inside a transaction to roll it back when a singular response would not hold exactly one row. */
class SingularViolation extends Error {
  constructor(readonly rows: number) {
    super('singular');
  }
}

function toNumber(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

function outcomeOf(row: ResultRow | undefined): Outcome {
  return { body: row?.body ?? '[]', rows: Number(row?.page_rows ?? 0), total: toNumber(row?.total ?? null) };
}

/** The execute stage: runs planned statements on the pool, in transactions where they write or call functions. */
export class Executor {
  constructor(
    private readonly pool: pg.Pool,
    private readonly usePrepared: boolean,
  ) {}

  private config(statement: Statement): pg.QueryConfig {
    const { text, values } = statement;
    if (!this.usePrepared) return { text, values };
    let name = preparedNames.get(text);
    if (name === undefined && preparedNames.size < MAX_PREPARED) {
      name = `data_api_${preparedNames.size}`;
      preparedNames.set(text, name);
    }
    return name === undefined ? { text, values } : { name, text, values };
  }

  /** A table read: one statement outside a transaction, then the count the client preferred if it needs another. */
  async read(plan: PagePlan): Promise<Outcome> {
    const result = await this.pool.query<ResultRow>(this.config(plan.statement));
    const outcome = outcomeOf(result.rows[0]);
    if (plan.count?.mode === 'planned') outcome.total = await this.plannedCount(plan.count.planned);
    if (plan.count?.mode === 'estimated') outcome.total = await this.estimatedCount(plan.count.bounded, plan.count.planned);
    if (plan.exactlyOne && outcome.rows !== 1) throw apiErrors.singular(outcome.rows);
    return outcome;
  }

  /** A write in its own transaction, rolled back when the singular media type finds other than one row. */
  async write(plan: WritePlan, personId: string | null, roles: readonly string[]): Promise<WriteOutcome> {
    try {
      return await this.inTransaction({ readOnly: false, personId, roles }, async (client) => {
        const result = await client.query<ResultRow>(this.config(plan.statement));
        const outcome = outcomeOf(result.rows[0]);
        if (plan.exactlyOne && outcome.rows !== 1) throw new SingularViolation(outcome.rows);
        return { ...outcome, total: null, writtenIds: idsOf(result.rows[0]?.written_ids) };
      });
    } catch (error) {
      if (error instanceof SingularViolation) throw apiErrors.singular(error.rows);
      throw error;
    }
  }

  /** A call answering one value, in a transaction (read-only for GET): its JSON text, or null for a void function. */
  async callValue(plan: ValueCallPlan, options: TransactionOptions): Promise<string | null> {
    const { text, values } = plan.statement;
    const result = await this.inTransaction(options, (client) => client.query<{ body: string | null }>(text, values));
    return plan.returnsVoid ? null : (result.rows[0]?.body ?? 'null');
  }

  /** A call answering rows, read as a page in a transaction (read-only for GET). */
  async callRows(page: PagePlan, options: TransactionOptions): Promise<Outcome> {
    const result = await this.inTransaction(options, (client) => client.query<ResultRow>(this.config(page.statement)));
    const outcome = outcomeOf(result.rows[0]);
    if (page.exactlyOne && outcome.rows !== 1) throw apiErrors.singular(outcome.rows);
    return outcome;
  }

  private async plannedCount(statement: Statement): Promise<number> {
    const result = await this.pool.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(statement.text, statement.values);
    return result.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
  }

  /** Exact up to the row cap, the planner's estimate beyond it, so a count never scans a huge table. */
  private async estimatedCount(bounded: Statement, planned: Statement): Promise<number> {
    const result = await this.pool.query<{ n: number }>(bounded.text, bounded.values);
    const exact = result.rows[0]?.n ?? 0;
    return exact <= LIMITS.maxRows ? exact : Math.max(exact, await this.plannedCount(planned));
  }

  /** Runs statements in one transaction on one pooled client, with the request's statement timeout. */
  private async inTransaction<T>(options: TransactionOptions, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query(options.readOnly ? 'begin read only' : 'begin');
      // The changelog triggers read the author from opsdeck.person_id, guards on rows owned by other sources (a CRD,
      // GitOps) look for opsdeck.console_write, and role guards for opsdeck.roles; every setting ends with the
      // transaction.
      await client.query(
        `select set_config('statement_timeout', $1, true), set_config('opsdeck.person_id', $2, true), set_config('opsdeck.console_write', $3, true),
                set_config('opsdeck.roles', $4, true)`,
        [String(LIMITS.statementTimeoutMs), options.personId ?? '', options.readOnly ? '' : 'on', options.roles.join(',')],
      );
      const value = await work(client);
      await client.query('commit');
      return value;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
