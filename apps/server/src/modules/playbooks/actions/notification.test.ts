import { describe, expect, it } from 'vitest';
import { isNotificationConnection } from './notification';

describe('notification connections', () => {
  it('are the notification types of the connection catalogue and nothing else', () => {
    for (const type of ['slack', 'teams', 'email', 'webhook', 'generic_webhook', 'slackwebhook']) expect(isNotificationConnection(type), type).toBe(true);
    for (const type of ['postgres', 'http', 'smtp-ish', '']) expect(isNotificationConnection(type), type).toBe(false);
  });
});
