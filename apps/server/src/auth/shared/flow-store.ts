import type pg from 'pg';
import type { Expect, FlowKind, SameType } from '@opsdeck/shared';
import { z } from 'zod';
import { hashToken } from './session-token';
import { storedUiSchema, uiNodeSchema, uiTextSchema, withCsrfValue, type StoredUi } from './ui-nodes';

export const FLOW_KINDS = ['login', 'registration', 'recovery', 'verification', 'settings'] as const;
// The web names the same flows: the shared type is their one definition, and this stops compiling if the list parts.
type _FlowKindsAreShared = Expect<SameType<(typeof FLOW_KINDS)[number], FlowKind>>;
export type { FlowKind };
export type FlowState = 'choose_method' | 'sent_email' | 'passed_challenge' | 'show_form' | 'success';
export type Aal = 'aal1' | 'aal2';

export const FLOW_TTL_MS = 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Flow {
  id: string;
  kind: FlowKind;
  flowType: 'browser' | 'api';
  state: FlowState;
  returnTo: string | null;
  requestUrl: string;
  csrfTokenHash: string;
  refresh: boolean;
  requestedAal: Aal;
  identityId: string | null;
  ui: StoredUi;
  issuedAt: string;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

interface FlowRow {
  id: string;
  type: FlowKind;
  flow_type: 'browser' | 'api';
  state: FlowState;
  return_to: string | null;
  request_url: string;
  csrf_token_hash: string;
  refresh: boolean;
  requested_aal: Aal;
  identity_id: string | null;
  ui: unknown;
  issued_at: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

/** Timestamps leave the database as text (see db/database.ts); Kratos clients expect RFC 3339. */
export function toIso(value: string): string {
  return new Date(value).toISOString();
}

function fromRow(row: FlowRow): Flow {
  return {
    id: row.id,
    kind: row.type,
    flowType: row.flow_type,
    state: row.state,
    returnTo: row.return_to,
    requestUrl: row.request_url,
    csrfTokenHash: row.csrf_token_hash,
    refresh: row.refresh,
    requestedAal: row.requested_aal,
    identityId: row.identity_id,
    ui: storedUiSchema.parse(row.ui),
    issuedAt: toIso(row.issued_at),
    expiresAt: toIso(row.expires_at),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export interface NewFlow {
  kind: FlowKind;
  returnTo: string | undefined;
  requestUrl: string;
  csrfToken: string;
  refresh?: boolean;
  requestedAal?: Aal;
  identityId?: string | null;
  ui: StoredUi;
}

export async function createFlow(pool: pg.Pool, flow: NewFlow): Promise<Flow> {
  const result = await pool.query<FlowRow>(
    `insert into self_service_flows
       (type, return_to, request_url, csrf_token_hash, refresh, requested_aal, identity_id, ui, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9::double precision / 1000))
     returning *`,
    [
      flow.kind,
      flow.returnTo ?? null,
      flow.requestUrl,
      hashToken(flow.csrfToken),
      flow.refresh ?? false,
      flow.requestedAal ?? 'aal1',
      flow.identityId ?? null,
      JSON.stringify(flow.ui),
      FLOW_TTL_MS,
    ],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('flow insert returned no row');
  return fromRow(row);
}

export async function findFlow(pool: pg.Pool, kind: FlowKind, id: string | undefined): Promise<Flow | null> {
  if (id === undefined || !UUID.test(id)) return null;
  const result = await pool.query<FlowRow>('select * from self_service_flows where id = $1 and type = $2', [id, kind]);
  const row = result.rows[0];
  return row === undefined ? null : fromRow(row);
}

export function isExpired(flow: Flow): boolean {
  return Date.parse(flow.expiresAt) <= Date.now();
}

export async function saveFlowUi(pool: pg.Pool, id: string, ui: StoredUi): Promise<Flow> {
  const result = await pool.query<FlowRow>('update self_service_flows set ui = $2 where id = $1 returning *', [id, JSON.stringify(ui)]);
  const row = result.rows[0];
  if (row === undefined) throw new Error('flow disappeared while it was being updated');
  return fromRow(row);
}

/** Moves the flow to another step (a code sent, a form shown) with the form of that step. */
export async function saveFlowState(pool: pg.Pool, id: string, state: FlowState, ui: StoredUi): Promise<Flow> {
  const result = await pool.query<FlowRow>('update self_service_flows set state = $2, ui = $3 where id = $1 returning *', [
    id,
    state,
    JSON.stringify(ui),
  ]);
  const row = result.rows[0];
  if (row === undefined) throw new Error('flow disappeared while it was being updated');
  return fromRow(row);
}

/** Ends the flow now (too many wrong codes): its next use gets the expired answer and a fresh flow. */
export async function expireFlow(pool: pg.Pool, id: string): Promise<void> {
  await pool.query('update self_service_flows set expires_at = least(expires_at, now()) where id = $1', [id]);
}

/**
 * Marks the flow used; false when another request completed it first, so one flow yields at most one session. Takes a
 * transaction's client too, so a flow can be completed together with what it creates (registration).
 */
export async function completeFlow(pool: pg.Pool | pg.PoolClient, id: string, identityId: string): Promise<boolean> {
  const result = await pool.query(
    `update self_service_flows set state = 'passed_challenge', identity_id = $2, ui = jsonb_set(ui, '{messages}', '[]'::jsonb)
      where id = $1 and state <> 'passed_challenge'`,
    [id, identityId],
  );
  return result.rowCount === 1;
}

export const flowResponseSchema = z.object({
  id: z.string(),
  type: z.enum(['browser', 'api']),
  expires_at: z.string(),
  issued_at: z.string(),
  request_url: z.string(),
  return_to: z.string().optional(),
  refresh: z.boolean().optional(),
  requested_aal: z.enum(['aal1', 'aal2']).optional(),
  state: z.string(),
  ui: z.object({
    action: z.string(),
    method: z.literal('POST'),
    nodes: z.array(uiNodeSchema),
    messages: z.array(uiTextSchema).optional(),
  }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FlowResponse = z.infer<typeof flowResponseSchema>;

/**
 * The flow as Kratos returns it. The CSRF field carries this browser's token only when it is the token the flow was
 * issued with, so a flow id alone never reveals a usable token.
 */
export function renderFlow(flow: Flow, csrfToken: string | null): FlowResponse {
  const token = csrfToken !== null && hashToken(csrfToken) === flow.csrfTokenHash ? csrfToken : '';
  const messages = flow.ui.messages ?? [];
  return {
    id: flow.id,
    type: flow.flowType,
    expires_at: flow.expiresAt,
    issued_at: flow.issuedAt,
    request_url: flow.requestUrl,
    ...(flow.returnTo === null ? {} : { return_to: flow.returnTo }),
    ...(flow.kind === 'login' ? { refresh: flow.refresh, requested_aal: flow.requestedAal } : {}),
    state: flow.state,
    ui: {
      action: `/api/auth/self-service/${flow.kind}?flow=${flow.id}`,
      method: 'POST',
      nodes: withCsrfValue(flow.ui.nodes, token),
      ...(messages.length > 0 ? { messages } : {}),
    },
    created_at: flow.createdAt,
    updated_at: flow.updatedAt,
  };
}
