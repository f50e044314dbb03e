/**
 * Sending one rendered message through one notification connection (email, Slack, webhooks, chat services). A module
 * of its own so the notification engine and playbook actions reach it; Test Connection reaches it through the delivery
 * port of connections, which this module fills, so the two import each other in one direction only.
 */
import { registerNotificationDelivery, type DeliverNotification, type DeliveryOptions, type DeliveryReceipt, type NotificationMessage, type ResolvedConnection } from '../connections';
import { deliverEmail } from './email';
import { deliverGenericWebhook } from './generic-webhook';
import { deliverSlack } from './slack';
import { deliverTelegram } from './telegram';
import { deliverDiscord, deliverGoogleChat, deliverMattermost, deliverNtfy, deliverTeams } from './webhooks';

export type { DeliverNotification, DeliveryOptions, DeliveryReceipt, NotificationMessage } from '../connections';

export const DELIVERABLE_NOTIFICATION_TYPES = ['email', 'slack', 'generic_webhook', 'teams', 'discord', 'google_chat', 'mattermost', 'ntfy', 'telegram'] as const;

export type DeliverableNotificationType = (typeof DELIVERABLE_NOTIFICATION_TYPES)[number];

type Provider = (connection: ResolvedConnection, message: NotificationMessage, options: DeliveryOptions) => Promise<DeliveryReceipt>;

const PROVIDERS: Readonly<Record<DeliverableNotificationType, Provider>> = {
  email: deliverEmail,
  slack: deliverSlack,
  generic_webhook: deliverGenericWebhook,
  teams: deliverTeams,
  discord: deliverDiscord,
  google_chat: deliverGoogleChat,
  mattermost: deliverMattermost,
  ntfy: deliverNtfy,
  telegram: deliverTelegram,
};

export function isDeliverableType(type: string): type is DeliverableNotificationType {
  return (DELIVERABLE_NOTIFICATION_TYPES as readonly string[]).includes(type);
}

/**
 * The connection's secrets in every form an error could carry them: as given, URL-encoded (a token inside a path),
 * and as Basic credentials. Shorter values are left alone so ordinary words are not redacted. health's scrubSecrets
 * does the same, but importing the health module from here would close an import cycle through connections.
 */
function secretsOf(connection: ResolvedConnection): string[] {
  const values = new Set<string>();
  const add = (value: string | null | undefined): void => {
    if (value === null || value === undefined || value.length < 4) return;
    values.add(value);
    values.add(encodeURIComponent(value));
  };
  add(connection.password);
  for (const value of Object.values(connection.secretProperties)) add(value);
  if ((connection.password ?? '') !== '') add(Buffer.from(`${connection.username ?? ''}:${connection.password ?? ''}`, 'utf8').toString('base64'));
  return [...values].sort((a, b) => b.length - a.length);
}

function scrub(text: string, secrets: readonly string[]): string {
  return secrets.reduce((scrubbed, secret) => scrubbed.split(secret).join('[REDACTED]'), text);
}

/** Sends through the connection's provider; a refusal rejects with the provider's reason and never a secret. */
export const deliverNotification: DeliverNotification = async (connection, message, options) => {
  if (!isDeliverableType(connection.type)) throw new Error(`Notifications cannot be sent through a '${connection.type}' connection`);
  try {
    return await PROVIDERS[connection.type](connection, message, options);
  } catch (error) {
    const reason = error instanceof Error ? error.message || error.name : String(error);
    throw new Error(scrub(reason, secretsOf(connection)));
  }
};

// Loading the providers is what makes Test Connection send a real message: every process that serves the connection
// routes also loads the notification engine, which imports this module.
registerNotificationDelivery({ canDeliver: isDeliverableType, deliver: deliverNotification });
