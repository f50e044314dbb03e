import { describe, expect, it } from 'vitest';
import { healthOfEvent, waitLabel, waitMsOf } from './notification-wait';

describe('how long a notification holds an event (waitFor)', () => {
  it('holds health events for waitFor and sends every other event at once', () => {
    expect(waitMsOf({ waitFor: '2m' }, 'check.failed')).toBe(120_000);
    expect(waitMsOf({ waitFor: '2m' }, 'component.unhealthy')).toBe(120_000);
    expect(waitMsOf({ waitFor: '2m' }, 'config.warning')).toBe(120_000);
    expect(waitMsOf({ waitFor: '2m' }, 'config.updated')).toBe(0);
    expect(waitMsOf({ waitFor: '2m' }, 'playbook.approval.inserted')).toBe(0);
    expect(waitMsOf({}, 'check.failed')).toBe(0);
    expect(waitMsOf({ waitFor: '0s' }, 'check.failed')).toBe(0);
  });

  it('adds waitForEvalPeriod to the wait of config events only, as Mission Control applies it to catalog items', () => {
    expect(waitMsOf({ waitFor: '2m', waitForEvalPeriod: '30s' }, 'config.unhealthy')).toBe(150_000);
    expect(waitMsOf({ waitFor: '2m', waitForEvalPeriod: '30s' }, 'check.failed')).toBe(120_000);
    expect(waitLabel({ waitFor: '2m', waitForEvalPeriod: '30s' }, 'config.unhealthy')).toBe('2m + 30s');
    expect(waitLabel({ waitFor: '2m', waitForEvalPeriod: '30s' }, 'check.failed')).toBe('2m');
  });

  it('reads the health each event says its resource has', () => {
    expect(healthOfEvent('check.failed')).toBe('unhealthy');
    expect(healthOfEvent('check.passed')).toBe('healthy');
    expect(healthOfEvent('config.unknown')).toBe('unknown');
    expect(healthOfEvent('component.warning')).toBe('warning');
  });
});
