import type { ConnectionType } from '@opsdeck/shared';

import type { PersonRef, TeamRef } from '@/lib/people-refs';

export type { PersonRef, TeamRef } from '@/lib/people-refs';

/** One of the Others recipients: a stored notification connection, by reference, and a name for it. */
export interface CustomService {
  connection: string;
  name: string;
}

/** A notification as the editor reads it (spec 001 §3), with its recipient and creator joined. */
export interface Notification {
  id: string;
  title: string | null;
  events: string[];
  filter: string | null;
  person_id: string | null;
  team_id: string | null;
  custom_services: CustomService[] | null;
  template: string | null;
  properties: Record<string, unknown> | null;
  source: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  person: PersonRef | null;
  team: TeamRef | null;
  creator: PersonRef | null;
}

/** A row of notifications_summary: the notification with its delivery counts. */
export interface NotificationSummaryRow extends Notification {
  pending: number;
  failed: number;
  sent: number;
  avg_duration_ms: number | null;
  most_common_error: string | null;
}

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

export interface NotificationSendHistoryRow {
  id: string;
  notification_id: string;
  status: SendStatus;
  source_event: string | null;
  resource_id: string | null;
  person_id: string | null;
  /** The email address or connection it went to. */
  recipient: string | null;
  body: string | null;
  error: string | null;
  /** Why it was skipped (flapping inside the window). */
  reason: string | null;
  duration_millis: number | null;
  attempts: number;
  created_at: string;
  person: PersonRef | null;
}

export interface NotificationConnection {
  id: string;
  name: string;
  namespace: string;
  type: ConnectionType;
}
