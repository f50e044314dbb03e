import type { ConnectionType, RowWith, TableRow, ViewRow } from '@opsdeck/shared';

import type { PersonRef, TeamRef } from '@/lib/people-refs';

export type { PersonRef, TeamRef } from '@/lib/people-refs';

/** One of the Others recipients: a stored notification connection, by reference, and a name for it. */
export interface CustomService {
  connection: string;
  name: string;
}

/** A notification as the editor reads it (spec 001 §3), with its recipient and creator joined. */
export type Notification = RowWith<
  Pick<
    TableRow<'notifications'>,
    'id' | 'name' | 'title' | 'events' | 'filter' | 'person_id' | 'team_id' | 'custom_services' | 'template' | 'template_syntax' | 'properties' | 'source' | 'created_by' | 'created_at' | 'updated_at'
  >,
  { custom_services: CustomService[] | null; properties: Record<string, unknown> | null; source: string | null }
> & { person: PersonRef | null; team: TeamRef | null; creator: PersonRef | null };

/** A row of notifications_summary: the notification with its delivery counts. */
export type NotificationSummaryRow = Notification & Pick<ViewRow<'notifications_summary'>, 'pending' | 'failed' | 'sent' | 'avg_duration_ms' | 'most_common_error'>;

/** What a save sends; created_by is left to the server, which knows who is signed in. */
export interface NotificationInput {
  title: string | null;
  events: string[];
  filter: string | null;
  person_id: string | null;
  team_id: string | null;
  custom_services: CustomService[] | null;
  template: string | null;
  properties: Record<string, unknown>;
}

export const SEND_STATUSES = ['pending', 'sending', 'sent', 'failed', 'skipped'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

/**
 * A delivery of notification_send_history with the person it went to (an embed). `recipient` is the email address or
 * connection it went to; `reason` why it was skipped (flapping inside the window).
 */
export type NotificationSendHistoryRow = Pick<
  TableRow<'notification_send_history'>,
  'id' | 'notification_id' | 'status' | 'source_event' | 'resource_id' | 'person_id' | 'recipient' | 'body' | 'error' | 'reason' | 'duration_millis' | 'attempts' | 'created_at'
> & {
  person: PersonRef | null;
  /** The check, catalog item or component the event was about, by name; null when it is gone or not one of those. */
  resource_name: string | null;
};

/** A stored connection a notification can send through; its type is one the delivery port knows (text in the table). */
export type NotificationConnection = RowWith<Pick<TableRow<'connections'>, 'id' | 'name' | 'namespace' | 'type'>, { type: ConnectionType }>;
