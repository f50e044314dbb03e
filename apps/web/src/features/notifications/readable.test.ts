import { describe, expect, it } from 'vitest';
import { connectionName, eventLabel, notificationHeading, recipientText } from './readable';

describe('notifications in words', () => {
  it('titles a notification by its plain title, else its name, else its events, never by a template', () => {
    expect(notificationHeading({ title: 'Checkout down', name: 'checkout', events: ['check.failed'] })).toBe('Checkout down');
    expect(notificationHeading({ title: '{{ config.type }} {{ config.name }} is unhealthy', name: 'deployment-health', events: ['config.unhealthy'] })).toBe('deployment-health');
    expect(notificationHeading({ title: '{{ check.name }}', name: null, events: ['check.failed', 'config.warning'] })).toBe('Check failed, Config warning');
    expect(notificationHeading({ title: null, events: ['playbook.approval.inserted'] })).toBe('Playbook approval inserted');
  });

  it('names connections and recipients as a person would', () => {
    expect(connectionName('connection://mc/slack')).toBe('slack');
    expect(connectionName('engine-hook')).toBe('engine-hook');
    expect(recipientText('service:connection://default/slack#ops')).toBe('slack (ops)');
    expect(recipientText('service:engine-hook')).toBe('engine-hook');
    expect(recipientText('email:ada@example.test')).toBe('ada@example.test');
    expect(recipientText('waitFor')).toBe('Waiting (waitFor)');
    expect(recipientText('fallback')).toBe('Waiting for the fallback');
    expect(recipientText('inhibition')).toBe('Inhibited');
    expect(eventLabel('check.passed')).toBe('Check passed');
  });
});
