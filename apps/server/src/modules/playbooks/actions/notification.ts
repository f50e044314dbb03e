import { isConnectionType, NOTIFICATION_CONNECTION_TYPES } from '@opsdeck/shared';
import { resolveConnection, type ResolvedConnection } from '../../connections';
import type { ActionRunner } from '../types';
import { completedOutcome, errorText, failedOutcome } from './action-outcome';

export function isNotificationConnection(type: string): boolean {
  return isConnectionType(type) && NOTIFICATION_CONNECTION_TYPES.has(type);
}

/**
 * Sends the message through a notification connection. Until the notifications area delivers messages (issue #16)
 * the action records what it would send: the connection, its type and the title in `logs`, the message in `body`.
 */
export const runNotificationAction: ActionRunner = async (action, context) => {
  const spec = action.notification;
  if (spec === undefined) throw new Error(`Action '${action.name}' has no notification block`);
  let connection: ResolvedConnection;
  try {
    connection = await resolveConnection(context.pool, context.secretKey, spec.connection);
  } catch (error) {
    return failedOutcome(errorText(error));
  }
  if (!isNotificationConnection(connection.type)) {
    return failedOutcome(`Connection ${connection.namespace}/${connection.name} is of type ${connection.type}, which is not a notification connection (slack, teams, email, webhook…)`);
  }
  return completedOutcome({ logs: `Recorded for ${connection.name} (${connection.type}): ${spec.title}`, body: spec.message });
};
