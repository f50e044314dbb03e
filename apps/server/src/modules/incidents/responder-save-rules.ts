import { highestRole, ROLE_RANK } from '@opsdeck/shared';
import type { Database } from '../../db/database';
import { writeHooksFor, type WriteMethod } from '../../data-api/write-hooks';
import { AppError } from '../../platform/errors';
import type { Principal } from '../../platform/principal';

/** Responder types the notifier acts on through a stored connection (responder-notifier.ts): it sends or files. */
const CONNECTION_CLIENTS: ReadonlySet<string> = new Set(['email', 'jira']);

/**
 * Columns that, on an existing row the PATCH cannot see, could turn it into a client responder or point it at
 * another team's connection while its notification is still queued or being retried.
 */
const CLIENT_COLUMNS = ['type', 'team_id'] as const;

export const responderErrors = {
  /** `field` is what the write set: properties.responderType, or a column that could make a row such a responder. */
  clientNeedsCommander: (client: string, field: string) =>
    new AppError(
      403,
      'OD_RESPONDER_CLIENT_ROLE',
      `Adding or changing ${client} responders needs the commander role or above: they act through a team's stored connection`,
      field,
      'Ask a commander to add it, or add the team or a person as a responder instead',
    ),
} as const;

function clientOf(row: Readonly<Record<string, unknown>>): string | null {
  const properties = row.properties;
  if (typeof properties !== 'object' || properties === null) return null;
  const type = (properties as Record<string, unknown>).responderType;
  return typeof type === 'string' && CONNECTION_CLIENTS.has(type) ? type : null;
}

/**
 * Email and Jira responders make the server send mail or open issues with a team's stored credentials, which
 * docs/security.md grants to commanders and up; the responder write alone (which the responder role holds too, spec 000
 * §6) covers people and teams as responders and the acknowledge, sign-off and close times. The role is the request's
 * (an API token's role, capped at its owner's), so a token made for a responder cannot send mail either.
 */
export function validateResponderRows(rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod, principal: Principal | null): void {
  if (method === 'DELETE') return;
  if (ROLE_RANK[highestRole(principal?.roles ?? [])] >= ROLE_RANK.commander) return;
  for (const row of rows) {
    const client = clientOf(row);
    if (client !== null) throw responderErrors.clientNeedsCommander(client, 'properties.responderType');
    const column = method === 'PATCH' ? CLIENT_COLUMNS.find((name) => row[name] !== undefined) : undefined;
    if (column !== undefined) throw responderErrors.clientNeedsCommander('email or Jira', column);
  }
}

export function registerResponderSaveRules(db: Database): void {
  writeHooksFor(db).register('responders', validateResponderRows);
}
