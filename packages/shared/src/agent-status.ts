/** Spec 001 §4/§9: an agent is Online while its last heartbeat or push is at most this old. */
export const AGENT_ONLINE_THRESHOLD_MS = 61_000;

export type AgentStatus = 'Online' | 'Offline';

/** Online when last_seen lies within the threshold of `now`; never seen, or an unreadable time, is Offline. */
export function agentStatus(lastSeen: string | Date | null, now: Date = new Date()): AgentStatus {
  if (lastSeen === null) return 'Offline';
  const seen = typeof lastSeen === 'string' ? Date.parse(lastSeen) : lastSeen.getTime();
  if (Number.isNaN(seen)) return 'Offline';
  return now.getTime() - seen <= AGENT_ONLINE_THRESHOLD_MS ? 'Online' : 'Offline';
}
