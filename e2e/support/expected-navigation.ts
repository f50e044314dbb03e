import type { Role } from './roles';

export interface ExpectedSidebar {
  /** Top-level entries, in sidebar order. */
  areas: string[];
  /** Entries of the Settings submenu, sorted by label; null when the role gets no Settings submenu at all. */
  settings: string[] | null;
}

/**
 * What each demo role sees with the demo feature flags, worked out by hand from spec 001 §2.1/§6 and the role table
 * of spec 000 §6 for the areas the app ships today, rather than computed by the app's own navigation code.
 * When an area ships its sidebar entry, it is added here.
 */
export const EXPECTED_SIDEBAR: Record<Role, ExpectedSidebar> = {
  // The Audit Log is for admins alone (resource 'audit', #19).
  admin: { areas: ['Dashboard', 'Health', 'Incidents', 'Catalog', 'Logs', 'Playbooks'], settings: ['Agents', 'Audit Log', 'Catalog Scrapers', 'Connections', 'Event Queue', 'Feature Flags', 'Health Checks', 'Incident Rules', 'Integrations', 'Jobs History', 'Log Backends', 'Notifications', 'Teams', 'Topologies', 'Users'] },
  editor: { areas: ['Dashboard', 'Health', 'Incidents', 'Catalog', 'Logs', 'Playbooks'], settings: ['Agents', 'Catalog Scrapers', 'Connections', 'Event Queue', 'Feature Flags', 'Health Checks', 'Incident Rules', 'Integrations', 'Jobs History', 'Log Backends', 'Notifications', 'Teams', 'Topologies', 'Users'] },
  // Commanders and responders may not read connections or identities (no Users); everyone reads teams (`database`) and
  // incident rules (`incident`). Editors read everything, identities included, so they see Users.
  commander: { areas: ['Dashboard', 'Health', 'Incidents', 'Catalog', 'Logs', 'Playbooks'], settings: ['Agents', 'Catalog Scrapers', 'Event Queue', 'Feature Flags', 'Health Checks', 'Incident Rules', 'Integrations', 'Jobs History', 'Log Backends', 'Notifications', 'Teams', 'Topologies'] },
  responder: { areas: ['Dashboard', 'Health', 'Incidents', 'Catalog', 'Logs', 'Playbooks'], settings: ['Agents', 'Catalog Scrapers', 'Event Queue', 'Feature Flags', 'Health Checks', 'Incident Rules', 'Integrations', 'Jobs History', 'Log Backends', 'Notifications', 'Teams', 'Topologies'] },
  viewer: { areas: ['Dashboard', 'Health', 'Incidents', 'Catalog', 'Logs', 'Playbooks'], settings: null },
};
