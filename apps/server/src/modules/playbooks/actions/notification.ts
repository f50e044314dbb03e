import { resolveConnection, type ResolvedConnection } from '../../connections';
import { DELIVERABLE_NOTIFICATION_TYPES, deliverNotification, isDeliverableType } from '../../notification-providers';
import type { ActionRunner } from '../types';
import { completedOutcome, errorText, failedOutcome, stopMessage } from './action-outcome';

/** The property naming an email action's addresses (comma or space separated); the other properties are provider options. */
const EMAIL_TO_PROPERTY = 'to';

function addressesOf(text: string | undefined): string[] {
  return (text ?? '').split(/[\s,;]+/).filter((address) => address !== '');
}

/**
 * Sends the rendered title and message through the notification connection's provider, the same delivery the
 * notification engine uses: an email action mails `properties.to`, the other providers take the remaining properties
 * as options (a Slack channel overriding the connection's, say). A retry of the run's action carries the same
 * idempotency key, so providers that honour one show it once.
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
  if (!isDeliverableType(connection.type)) {
    return failedOutcome(
      `Connection ${connection.namespace}/${connection.name} is of type ${connection.type}, which notifications cannot deliver to (${DELIVERABLE_NOTIFICATION_TYPES.join(', ')})`,
    );
  }
  const properties = spec.properties ?? {};
  const { [EMAIL_TO_PROPERTY]: to, ...emailOptions } = properties;
  const startedAt = performance.now();
  try {
    const receipt = await deliverNotification(
      connection,
      {
        idempotencyKey: `playbook:${context.runId}:${context.actionId}`,
        title: spec.title,
        body: spec.message,
        url: null,
        to: connection.type === 'email' ? addressesOf(to) : [],
        options: connection.type === 'email' ? emailOptions : properties,
      },
      { signal: context.signal },
    );
    const sent = `Sent through ${connection.name} (${connection.type}): ${spec.title}`;
    return completedOutcome({ logs: receipt.providerMessageId === null ? sent : `${sent} [${receipt.providerMessageId}]`, body: spec.message });
  } catch (error) {
    return failedOutcome(context.signal.aborted ? stopMessage(context.signal, context.timeoutMs, startedAt) : errorText(error), { body: spec.message });
  }
};
