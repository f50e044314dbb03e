import { describe, expect, it } from 'vitest';
import { failedRecipientsOf, parseFallback } from './notification-fallback';

describe('parseFallback', () => {
  it('reads one recipient in the shape of the notification columns and the delay in milliseconds', () => {
    expect(parseFallback({ custom_services: [{ connection: 'connection://mc/slack' }], delay: '5m' })).toEqual({
      target: { person_id: null, team_id: null, custom_services: [{ connection: 'connection://mc/slack' }], playbook_id: null },
      delayMs: 300_000,
      delay: '5m',
    });
    expect(parseFallback({ person_id: '0190c5a4-7d3e-7000-8000-000000000001' })).toMatchObject({ delayMs: 0, delay: null });
  });

  it('refuses a fallback naming no recipient or two, a person by anything but an id, or a delay that is not a duration', () => {
    expect(parseFallback({ delay: '5m' })).toEqual({ problem: 'fallback must name exactly one of person_id, team_id, custom_services, playbook_id' });
    expect(parseFallback({ person_id: '0190c5a4-7d3e-7000-8000-000000000001', team_id: '0190c5a4-7d3e-7000-8000-000000000002' })).toMatchObject({ problem: expect.any(String) });
    expect(parseFallback({ person_id: 'ops@example.test' })).toEqual({ problem: 'fallback.person_id must be an id' });
    expect(parseFallback({ custom_services: [{ connection: 'x' }], delay: 'soon' })).toEqual({ problem: 'fallback.delay must be a duration, e.g. 5m' });
  });

  it('reads back the recipients a held fallback was written for, and none from a payload without them', () => {
    expect(failedRecipientsOf({ id: 'e', failedRecipients: ['service:connection://mc/broken', 3] })).toEqual(['service:connection://mc/broken']);
    expect(failedRecipientsOf({ id: 'e' })).toEqual([]);
  });
});
