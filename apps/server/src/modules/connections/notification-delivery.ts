import type { ResolvedConnection } from './connection-store';

/** One rendered message on its way to one provider target. */
export interface NotificationMessage {
  /** Stable per event and recipient: providers that accept an idempotency or dedup key get it. */
  idempotencyKey: string;
  title: string;
  /** Markdown; each provider turns it into what it displays (Slack mrkdwn, HTML email with a text part, plain text). */
  body: string;
  /** A link back into the console for the event's resource, when there is one. */
  url: string | null;
  /** Email recipients, for a person or a team's members; other providers ignore it. */
  to: readonly string[];
  /** Provider options from the notification's custom service entry (e.g. a Slack channel overriding the connection's). */
  options: Readonly<Record<string, string>>;
}

export interface DeliveryOptions {
  signal: AbortSignal;
}

export interface DeliveryReceipt {
  /** The provider's id for the message, when its API returns one. */
  providerMessageId: string | null;
}

/** Sends one message through a notification connection; rejects with a message that says why the provider refused. */
export type DeliverNotification = (connection: ResolvedConnection, message: NotificationMessage, options: DeliveryOptions) => Promise<DeliveryReceipt>;

/**
 * What Test Connection needs from the notification providers: whether a connection type can carry a message, and
 * sending one. The providers take their connection types from this module, so connections cannot import them back
 * without closing a cycle; they register here instead.
 */
export interface NotificationDeliveryPort {
  canDeliver(type: string): boolean;
  deliver: DeliverNotification;
}

let registered: NotificationDeliveryPort | null = null;

export function registerNotificationDelivery(port: NotificationDeliveryPort): void {
  registered = port;
}

/** The registered providers; null in a process that never loaded them, where Test Connection only checks reachability. */
export function notificationDelivery(): NotificationDeliveryPort | null {
  return registered;
}
