import type { NotificationSummaryRow } from '../api/types';

export const ADA = { id: '11111111-1111-4111-8111-111111111111', name: 'Ada Lovelace', avatar: null };
export const PLATFORM = { id: '44444444-4444-4444-8444-444444444444', name: 'Platform', icon: null };
export const HOOK = { id: '55555555-5555-4555-8555-555555555555', name: 'ops-hook', namespace: 'default', type: 'generic_webhook' };

/** A summary row for `id`, with the counts and recipient a test overrides. */
export function notificationRow(id: string, overrides: Partial<NotificationSummaryRow> = {}): NotificationSummaryRow {
  return {
    id,
    name: null,
    title: 'Checkout checks',
    events: ['check.failed', 'check.passed'],
    filter: null,
    person_id: ADA.id,
    team_id: null,
    custom_services: null,
    template: null,
    template_syntax: 'liquid',
    properties: {},
    source: 'UI',
    created_by: ADA.id,
    created_at: '2026-01-05T10:00:00Z',
    updated_at: '2026-01-05T10:00:00Z',
    person: ADA,
    team: null,
    creator: ADA,
    pending: 1,
    failed: 2,
    sent: 7,
    avg_duration_ms: 350,
    most_common_error: 'connection refused',
    ...overrides,
  };
}
