import type { FastifyRequest } from 'fastify';

/**
 * What the data API tells the audit trail (modules/audit) about a write, which the trail cannot read from the request:
 * the body is raw text here. The rows are as they reached the database (after the write hooks sealed any secret); the
 * trail keeps their field names and scrubbed values.
 */
export interface DataApiWriteDetail {
  /** The table, view or function written. */
  resource: string;
  action: 'create' | 'upsert' | 'update' | 'delete' | 'execute';
  /** The primary key of every row touched (at most MAX_WRITTEN_IDS); null for a relation without one. */
  resourceIds: string[] | null;
  /** The columns written: for a call, its argument names. */
  fields: string[];
  /** The written rows; empty for a DELETE or a call, whose argument values are never kept. */
  rows: ReadonlyArray<Record<string, unknown>>;
}

declare module 'fastify' {
  interface FastifyRequest {
    dataApiWrite: DataApiWriteDetail | null;
  }
}

export function setDataApiWrite(request: FastifyRequest, detail: DataApiWriteDetail): void {
  request.dataApiWrite = detail;
}
