import { describe, expect, it } from 'vitest';
import { AGENT_ONLINE_THRESHOLD_MS, agentStatus } from './agent-status';

describe('agentStatus', () => {
  const now = new Date('2026-01-01T12:00:00.000Z');
  const ago = (ms: number): string => new Date(now.getTime() - ms).toISOString();

  it('is Online when the agent was seen within 61 seconds, the boundary included', () => {
    expect(AGENT_ONLINE_THRESHOLD_MS).toBe(61_000);
    expect(agentStatus(ago(0), now)).toBe('Online');
    expect(agentStatus(ago(30_000), now)).toBe('Online');
    expect(agentStatus(ago(61_000), now)).toBe('Online');
  });

  it('is Offline once 61 seconds have passed, and for an agent never seen or an unreadable time', () => {
    expect(agentStatus(ago(61_001), now)).toBe('Offline');
    expect(agentStatus(ago(3 * 60 * 60 * 1000), now)).toBe('Offline');
    expect(agentStatus(null, now)).toBe('Offline');
    expect(agentStatus('not a date', now)).toBe('Offline');
  });

  it('accepts a Date as well as the API’s ISO string', () => {
    expect(agentStatus(new Date(now.getTime() - 10_000), now)).toBe('Online');
  });
});
